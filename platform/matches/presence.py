"""Presence: whether a user is on the site (a page with a live socket, or an action in the last
few minutes) and on which matches' pages, kept in Redis beside the channel layer.

One Redis hash per user, ``spieltisch:presence:<user id>``; each field is one source:

- ``<match>@<process>`` (match 0: a page that is not a match's): that process's sockets of the
  user on that page. The value is the last moment the process vouched for them: written at
  the connect and again every ``REFRESH_S`` while a socket is open (a positive number), and
  at the last socket's disconnect as the negative of that moment ("closed at"). A process
  that dies without a goodbye stops refreshing: its fields count ``ALIVE_S`` more seconds,
  then no longer — so several tabs (one count per process and page), reconnects (the new
  socket writes its own field) and a server restart (the old process's fields run out, the
  reconnecting pages write new ones) all come out right.
- ``act``: the last HTTP request (API clients without a socket count as present for
  ``ACTION_S``).

Nothing here runs per frame or per move: the process writes on connect/disconnect (on its
own thread, never on the event loop) and once per ``REFRESH_S`` for all its sockets together
(one pipeline). The HTTP middleware writes at most once per ``ACTION_WRITE_S`` per user and
process. The readers are the notification sweep (``read``), never the move path.

Without Redis (the embedded default: one process), the hash lives in this process.
"""
from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field

logger = logging.getLogger(__name__)

PREFIX = "spieltisch:presence:"
REFRESH_S = 20.0  # how often a process vouches for its open sockets
ALIVE_S = 50.0  # a socket counts this long after its process last vouched for it (< one minute)
ACTION_S = 180.0  # an HTTP request counts as presence for this long
ACTION_WRITE_S = 30.0  # per user and process, the request's mark is written at most this often
KEEP_S = 2 * 86400  # the hash outlives the last source (the notices' "left at" needs it)

_lock = threading.Condition()
_open: dict[tuple[int, int], int] = {}  # (user, match) -> sockets of this process
_dirty: dict[tuple[int, int] | tuple[int, str], float] = {}  # writes waiting for the thread
_action_written: dict[int, float] = {}
_thread_pid: int | None = None
_proc = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
_local: dict[int, dict[str, float]] = {}  # no Redis: the hashes of this process


def _client():
    from ops.redis_client import client

    return client()


def _process() -> str:
    global _proc
    if f":{os.getpid()}:" not in _proc:  # a forked child: its own name
        _proc = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
    return _proc


def _ensure_thread() -> None:
    global _thread_pid
    if _thread_pid != os.getpid():
        _thread_pid = os.getpid()
        threading.Thread(target=_writer, name="presence", daemon=True).start()


# --- the writers (connect, disconnect, requests) -------------------------------------------------
def opened(user_id: int, match_id: int | None, at: float | None = None) -> None:
    """A socket of ``user_id`` opened on ``match_id``'s page (None: another page); ``at``: the
    moment (epoch seconds; tests)."""
    key = (user_id, match_id or 0)
    with _lock:
        _ensure_thread()
        _open[key] = _open.get(key, 0) + 1
        _dirty[key] = time.time() if at is None else at
        _lock.notify()


def closed(user_id: int, match_id: int | None, at: float | None = None) -> None:
    """The socket's goodbye: the last one of this process on that page ends its field."""
    key = (user_id, match_id or 0)
    with _lock:
        _ensure_thread()
        left = _open.get(key, 0) - 1
        if left > 0:
            _open[key] = left
            return
        _open.pop(key, None)
        _dirty[key] = -(time.time() if at is None else at)
        _lock.notify()


def acted(user_id: int, now: float | None = None) -> None:
    """An HTTP request of ``user_id`` (throttled: a dictionary look-up on most requests)."""
    now = time.time() if now is None else now
    if _action_written.get(user_id, 0.0) + ACTION_WRITE_S > now:
        return
    with _lock:
        _ensure_thread()
        _action_written[user_id] = now
        _dirty[(user_id, "act")] = now
        _lock.notify()


def _fields(items) -> dict[int, dict[str, float]]:
    proc = _process()
    out: dict[int, dict[str, float]] = {}
    for (user_id, where), value in items:
        name = "act" if where == "act" else f"{where}@{proc}"
        out.setdefault(user_id, {})[name] = value
    return out


def _write(by_user: dict[int, dict[str, float]]) -> None:
    if not by_user:
        return
    r = _client()
    if r is None:
        for user_id, values in by_user.items():
            _local.setdefault(user_id, {}).update(values)
        return
    pipe = r.pipeline(transaction=False)
    for user_id, values in by_user.items():
        pipe.hset(f"{PREFIX}{user_id}", mapping=values)
        pipe.expire(f"{PREFIX}{user_id}", KEEP_S)
    pipe.execute()


def _writer() -> None:
    next_refresh = time.monotonic() + REFRESH_S
    while True:
        with _lock:
            while not _dirty and time.monotonic() < next_refresh:
                _lock.wait(max(0.0, next_refresh - time.monotonic()))
            items = list(_dirty.items())
            _dirty.clear()
            if time.monotonic() >= next_refresh:
                now = time.time()
                items += [(key, now) for key in _open if key not in dict(items)]
                next_refresh = time.monotonic() + REFRESH_S
                cutoff = now - ACTION_WRITE_S
                for user_id in [u for u, t in _action_written.items() if t < cutoff]:
                    del _action_written[user_id]
        try:
            _write(_fields(items))
        except Exception as exc:  # Redis away: the next refresh writes the open ones again
            logger.debug("presence not written: %s", exc)


def refresh(at: float | None = None) -> None:
    """Vouch for this process's open sockets now (the writer thread does it every REFRESH_S;
    tests call it with ``at`` to stand for the refreshes of a span of time)."""
    at = time.time() if at is None else at
    with _lock:
        items = [(key, at) for key in _open]
    _write(_fields(items))


def flush() -> None:
    """Write what waits now, in this thread (tests; a process about to stop)."""
    with _lock:
        items = list(_dirty.items())
        _dirty.clear()
    _write(_fields(items))


class PresenceMiddleware:
    """Marks the signed-in user present on every request (see ``acted``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            acted(user.pk)
        return self.get_response(request)


# --- the reader ----------------------------------------------------------------------------------
@dataclass
class Presence:
    """What the hash says about one user at ``now`` (epoch seconds)."""
    now: float
    sources: dict[str, float] = field(default_factory=dict)

    def _alive(self, name: str, value: float) -> bool:
        if name == "act":
            return value + ACTION_S > self.now
        return value > 0 and value + ALIVE_S > self.now

    @property
    def present(self) -> bool:
        return any(self._alive(n, v) for n, v in self.sources.items())

    def on_match(self, match_id: int) -> bool:
        prefix = f"{match_id}@"
        return any(n.startswith(prefix) and self._alive(n, v) for n, v in self.sources.items())

    @property
    def left_at(self) -> float:
        """When the user was last known on the site (0: never); meaningful when not present."""
        last = 0.0
        for name, value in self.sources.items():
            last = max(last, value + ACTION_S if name == "act" else abs(value))
        return min(last, self.now)

    def seen_match_since(self, match_id: int, since: float) -> bool:
        """The match's page was open at some moment after ``since``."""
        prefix = f"{match_id}@"
        return any(n.startswith(prefix) and abs(v) > since for n, v in self.sources.items())


def read(user_ids, now: float | None = None) -> dict[int, Presence]:
    """The presence of several users (one round trip)."""
    now = time.time() if now is None else now
    user_ids = list(user_ids)
    r = _client()
    if r is None:
        return {u: Presence(now, dict(_local.get(u, {}))) for u in user_ids}
    pipe = r.pipeline(transaction=False)
    for user_id in user_ids:
        pipe.hgetall(f"{PREFIX}{user_id}")
    out = {}
    for user_id, raw in zip(user_ids, pipe.execute()):
        out[user_id] = Presence(now, {(k.decode() if isinstance(k, bytes) else k): float(v) for k, v in raw.items()})
    return out


def forget(user_ids=None) -> None:
    """Tests: drop the hashes (all of this process's, or of ``user_ids``)."""
    r = _client()
    with _lock:
        _open.clear()
        _dirty.clear()
        _action_written.clear()
    if r is None:
        if user_ids is None:
            _local.clear()
        for u in user_ids or []:
            _local.pop(u, None)
        return
    keys = [f"{PREFIX}{u}" for u in user_ids] if user_ids is not None else list(r.scan_iter(f"{PREFIX}*"))
    if keys:
        r.delete(*keys)
