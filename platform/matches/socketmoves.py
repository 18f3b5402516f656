"""Moves over the websocket a seated player already holds.

The socket knows its user, match and seat from the handshake, so a move needs no HTTP request,
no session or token lookup and no middleware: it goes straight to ``services.submit_action``,
the same single writer as ``POST /api/matches/{id}/actions/`` (row lock, version check, per-seat
frames after commit). The HTTP API stays for every other client.

Client → server:  {"type": "act", "action": {...}, "version": 12, "ref": "any short id"}
                  {"type": "act", "form": {"card": "3"}, "version": 12, "ref": ...}   (the game
                   page's move form, its fields as posted: the game reads the action from them
                   as the page's POST does)
                  {"type": "chat", "text": "...", "ref": "any short id"}   (a chat line; the page's
                   rules: matches/chat.py, and the chat-user rate limit shared with the page and API)
Server → client:  {"type": "acted", "ref": ..., "version": 13}
                  {"type": "said", "ref": ..., "id": 41}   (the line itself arrives as the chat frame)
                  {"type": "refused", "ref": ..., "status": 409, "error": "stale_version",
                   "detail": "...", "version": 13}      (the HTTP API's error shape + status)
                  {"type": "refused", "ref": ..., "status": 503, "error": "busy", "retry_after": 1}
The new view itself arrives as the seat's usual ``match.update`` frame. (The socket also
takes ``{"type": "hello"}``, answered with a ``state`` frame: see consumers.py.)

Threads: a process runs its socket moves on a few threads of its own (``MOVE_THREADS``), each
with its own kept database connection (run the socket server with DB_CONN_MAX_AGE > 0, as
`make ws` does). One thread would serialise the moves behind each other's database round trips
(measured: the thread spent most of its time waiting for PostgreSQL, at 40 moves/s); the row
lock keeps one writer per match whatever the thread.

Overload: when more than ``MAX_WAITING`` moves of a process are accepted and not yet answered,
new ones are refused at once with 503 + retry_after (the client backs off and sends again)
instead of queueing without bound: latency stays bounded and no frame or connection is dropped.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from django.db import DatabaseError, InterfaceError, connection
from django.utils import translation

from games import safejson
from games.base import IllegalAction

from . import socketcaps
from .buckets import BURST, RATE, Bucket  # noqa: F401  (per socket: moves per second, the burst allowed)
from .errors import MatchError

logger = logging.getLogger(__name__)

MAX_TEXT = 64 * 1024  # far beyond any action the games define
MAX_WAITING = 128  # moves of this process accepted and not yet answered before new ones are refused
# (under 1 s of work: a process answers ~150 socket moves/s, bench/cpu_split.py)
RETRY_AFTER_S = 1
MOVE_THREADS = 4

_waiting = 0  # this process's socket moves accepted and not yet answered


def _reply(kind: str, ref, **fields) -> str:
    return json.dumps({"type": kind, "ref": ref, **fields})


def parse(text: str | None) -> tuple[dict | None, object, str | None]:
    """(message, ref, problem): a dict with type "act", or the reason it is refused."""
    if text is None or len(text) > MAX_TEXT:
        return None, None, "Send one JSON text message of at most 64 KiB."
    try:
        data = safejson.loads(text)
    except ValueError:
        return None, None, "The message is not valid JSON."
    if not isinstance(data, dict):
        return None, None, "The message must be a JSON object."
    ref = data.get("ref")
    if not isinstance(ref, (str, int)) or isinstance(ref, bool) or len(str(ref)) > 64:
        ref = None
    if data.get("type") not in ("act", "chat"):
        return None, ref, "Unknown message type (this socket takes {\"type\": \"act\" or \"chat\", ...})."
    return data, ref, None


async def handle(consumer, text: str | None) -> None:
    """Answer one message from a match socket."""
    global _waiting
    data, ref, problem = parse(text)
    if problem:
        await consumer.send(text_data=_reply("refused", ref, status=400, error="invalid", detail=problem))
        return
    if data["type"] == "chat":
        await consumer.send(text_data=await _chat(consumer, data, ref))
        return
    if consumer.seat is None:
        await consumer.send(text_data=_reply("refused", ref, status=403, error="not_seated",
                                             detail="Only a seated player can move."))
        return
    if not consumer.bucket.take() or not socketcaps.take_user_move(consumer.scope["user"].pk):
        await consumer.send(text_data=_reply("refused", ref, status=429, error="throttled",
                                             detail="Too many moves; wait a moment.", retry_after=RETRY_AFTER_S))
        return
    if _waiting >= MAX_WAITING:
        await consumer.send(text_data=_reply("refused", ref, status=503, error="busy",
                                             detail="The server is busy; send the move again shortly.",
                                             retry_after=RETRY_AFTER_S))
        return
    _waiting += 1
    try:
        action = data.get("action")
        if "form" in data:
            action = _from_form(consumer.game, data["form"])
        answer = await _act(consumer.match_id, consumer.scope["user"], consumer.lang, action,
                            data.get("version"), ref)
    finally:
        _waiting -= 1
    await consumer.send(text_data=answer)


async def _chat(consumer, data: dict, ref) -> str:
    return await SyncToAsync(_chat_now, thread_sensitive=False, executor=_threads())(
        consumer.match_id, consumer.scope["user"], consumer.lang, data.get("text"), ref)


def _chat_now(match_id: int, user, lang: str, text, ref) -> str:
    """A chat line from the socket: the same service and the same per-user limit as the page's
    and the API's ``POST .../chat/`` (web/ratelimit.py's chat-user rule, counted here as a
    request there would be)."""
    from django.db import close_old_connections

    from web import ratelimit

    from . import chat

    close_old_connections()
    with translation.override(lang):
        if not isinstance(text, str):
            return _reply("refused", ref, status=400, error="invalid", detail="Send {\"type\": \"chat\", \"text\": \"...\"}.")
        seconds = ratelimit.WINDOWS.get("chat-user", 60)
        now = time.time()
        window = int(now // seconds)
        if ratelimit.take(ratelimit._key("chat-user", f"u{user.pk}", window), seconds) > ratelimit.limits()["chat-user"]:
            wait = max(1, int((window + 1) * seconds - now))
            return _reply("refused", ref, status=429, error="throttled",
                          detail="Too many attempts. Please wait %s seconds and try again." % wait, retry_after=wait)
        try:
            message = chat.post(match_id, user, text)
        except MatchError as exc:
            return _reply("refused", ref, status=exc.status, error=exc.code, detail=exc.message, **exc.public_extra())
        finally:
            close_old_connections()
    return _reply("said", ref, id=message.pk)


_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def _threads() -> ThreadPoolExecutor:
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(MOVE_THREADS, thread_name_prefix="socket-moves")
        return _executor


class _FormAction:
    """A page's move form, read into an action by the game on the move's thread (a form the game
    cannot read is refused there as the page's POST would be)."""
    def __init__(self, game: str, fields):
        self.game, self.fields = game, fields

    def action(self):
        from games import registry

        if not isinstance(self.fields, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in self.fields.items()):
            raise IllegalAction("Send the form's fields as strings.")
        return registry.get(self.game).action_from_form(self.fields)


def _from_form(game: str, fields) -> _FormAction:
    return _FormAction(game, fields)


async def _act(*args) -> str:
    return await on_threads(_act_now, *args)


async def on_threads(fn, *args):
    """``fn(*args)`` on the move threads, with their kept database connections (``_kept``)."""
    return await SyncToAsync(_kept, thread_sensitive=False, executor=_threads())(fn, *args)


# A move thread keeps its connection this long at least, also where CONN_MAX_AGE is 0 (a server
# that also serves pages under ASGI, whose per-request threads must not keep theirs): the threads
# are few and live as long as the process. A new connection per move and per render had made
# Alchemist's click -> other page p50 154 ms against 139 (bench/move_latency.py --stack, 2026-12-07).
KEPT_S = 60
_db_failures = 0  # database errors seen by this process's move threads (a restart ends them all)
_local = threading.local()


def _kept(fn, *args):
    """A move (or a page's live part, matches/livepart.py) on this thread's kept connection. Django's usual per-call tidy-up
    (close_old_connections, as DatabaseSyncToAsync does before and after) re-arms the health
    check, which costs a ``SELECT 1`` round trip per move; here the connection is closed only
    when it is too old or a move hit a database error (that move answered 503). One thread's
    error makes every move thread of the process reconnect before its next move: a PostgreSQL
    restart ends all their connections, and each would otherwise fail one more move. "Too old":
    CONN_MAX_AGE, but ``KEPT_S`` at least."""
    conn = connection
    if getattr(_local, "failures", 0) != _db_failures:
        _local.failures = _db_failures
        conn.close()
    try:
        return fn(*args)
    finally:
        if conn.connection is not None:
            if getattr(_local, "opened", None) is not conn.connection:  # opened by this call
                _local.opened = conn.connection
                if conn.close_at is not None:  # kept KEPT_S at least, whatever CONN_MAX_AGE says
                    conn.close_at = max(conn.close_at, time.monotonic() + KEPT_S)
            if conn.errors_occurred or not conn.get_autocommit() or (
                    conn.close_at is not None and time.monotonic() >= conn.close_at):
                conn.close_if_unusable_or_obsolete()


def _database_failed() -> None:
    """This thread's move met a database error: every move thread reconnects before its next move."""
    global _db_failures
    _db_failures += 1
    _local.failures = _db_failures
    connection.close()


def _act_now(match_id: int, user, lang: str, action, version, ref) -> str:
    from .services import submit_action

    with translation.override(lang):
        try:
            if isinstance(action, _FormAction):
                action = action.action()
            entry = submit_action(match_id, user, action, version)
        except IllegalAction as exc:
            reason = exc.reason_de if lang == "de" and getattr(exc, "reason_de", None) else exc.reason
            return _reply("refused", ref, status=400, error="illegal_action", detail=reason)
        except MatchError as exc:
            return _reply("refused", ref, status=exc.status, error=exc.code, detail=exc.message, **exc.public_extra())
        except (DatabaseError, InterfaceError):
            # Nothing was applied (the transaction rolled back); the database is away or restarting.
            logger.warning("socket move on match %s: database unavailable", match_id, exc_info=True)
            _database_failed()
            return _reply("refused", ref, status=503, error="unavailable",
                          detail="The server cannot reach its database; send the move again shortly.",
                          retry_after=2)
    return _reply("acted", ref, version=entry.seq)
