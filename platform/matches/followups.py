"""The follow-ups of committed changes go to the worker in small batches.

One Celery task per move cost the server a broker publish and the worker a task's own
overhead (message, acknowledgement, prefork hand-over) for a few milliseconds of receiver
work. Changes committed within ``FLUSH_AFTER_S`` (100 ms) of each other (or ``MAX_BATCH`` of them) now
travel as one ``announce_changes`` task; the worker runs them in order. A batch the broker
does not take runs here, inline, as a single change did before (nothing is lost to a broker
that is down). Receivers are idempotent per version, so order across batches does not matter.

The price: a change's follow-up (clocks, "your turn") starts up to ``FLUSH_AFTER_S`` later, and
a process killed in that window loses the batch as it would lose an on-commit hook; the
follow-up sweep (matches/progress.py) finds the matches whose progress lags their version and
redoes them.

Direction: this module runs the match writer's follow-ups, so it imports ``services`` and
``tasks``; the writer reaches it only through ``signals.change_committed``, whose one receiver
is ``announce_change`` (connected in ``MatchesConfig.ready``).
"""
from __future__ import annotations

import atexit
import logging
import os
import threading
import time

logger = logging.getLogger(__name__)

# A clock that starts 100 ms late is invisible over days. Fuller batches pay: a batch costs about
# 2.6 ms of the worker's CPU of its own besides 0.5 ms per change (bench/move_profile.py --batch).
FLUSH_AFTER_S = 0.1
MAX_BATCH = 50

_cond = threading.Condition()
_pending: list[list] = []
_pid: int | None = None


def announce_change(sender=None, *, match_id: int, version: int, status: str, to_move: list[int],
                    previous_to_move: list[int] | None, hints: dict | None = None, **_) -> None:
    """Tell the other apps (clocks, notifications, ratings, tournaments) about a committed change
    (the receiver of ``signals.change_committed``, sent from the writer's ``on_commit``).

    The websocket frames go out from the request itself (they are what the other players wait
    for); this follow-up is most of a move's remaining work (clock bookkeeping, the "your turn"
    notification, ratings), so on the real services it runs in the Celery worker instead of
    delaying the response. Every receiver is idempotent per version, so a redelivered task or
    out-of-order versions do no harm. Broker down: run it here rather than lose it."""
    from django.conf import settings

    if getattr(settings, "MATCH_FOLLOW_UP_IN_WORKER", False):
        # In batches: the changes of the same few milliseconds share one task (a broker that is
        # down makes the batch run inline after one quick retry: 0.2 s measured).
        submit(match_id, version, status, to_move, previous_to_move, hints)
        return
    from .services import send_change_signals

    send_change_signals(match_id, version, status, to_move, previous_to_move, hints)


def submit(match_id: int, version: int, status: str, to_move: list[int], previous_to_move, hints) -> None:
    global _pid
    with _cond:
        if _pid != os.getpid():  # first use in this (possibly forked) process: its own flusher
            _pid = os.getpid()
            _pending.clear()
            threading.Thread(target=_flusher, name="follow-ups", daemon=True).start()
        _pending.append([match_id, version, status, to_move, previous_to_move, hints])
        _cond.notify()


def _take() -> list[list]:
    batch = _pending[:MAX_BATCH]
    del _pending[:MAX_BATCH]
    return batch


def _flusher() -> None:
    while True:
        with _cond:
            while not _pending:
                _cond.wait()
            # Let the changes of this moment join the batch. Every submit() wakes this wait, so
            # it waits again for what is left of the window (a single wait had made batches of
            # one or two changes under load).
            deadline = time.monotonic() + FLUSH_AFTER_S
            while len(_pending) < MAX_BATCH and (left := deadline - time.monotonic()) > 0:
                _cond.wait(left)
            batch = _take()
        try:
            send(batch)
        except Exception:  # the flusher must outlive any batch: a dead one would send nothing more
            logger.exception("follow-ups: a batch of %d changes could not be sent", len(batch))


def flush() -> None:
    """Send whatever waits now (at exit; tests)."""
    with _cond:
        batches = []
        while _pending:
            batches.append(_take())
    for batch in batches:
        send(batch)


def send(batch: list[list]) -> None:
    from .services import send_change_signals
    from .tasks import announce_changes

    try:
        # Broker down: give up after one quick retry and run the batch here (see announce_change).
        # sent_at: the worker publishes how long batches wait in the queue (progress.note_queue_wait)
        announce_changes.apply_async((batch,), kwargs={"sent_at": time.time()}, retry=True, retry_policy={
            "max_retries": 1, "interval_start": 0, "interval_step": 0.1, "interval_max": 0.1})
        return
    except Exception:
        logger.warning("broker unavailable: announcing %d changes inline", len(batch), exc_info=True)
    for item in batch:
        try:
            send_change_signals(*item)
        except Exception:
            logger.exception("follow-up of match %s v%s failed", item[0], item[1])
        finally:
            from django.db import close_old_connections

            try:
                close_old_connections()
            except Exception:  # (a connection that cannot even be checked is dropped next time)
                logger.warning("follow-ups: closing old connections failed", exc_info=True)


atexit.register(flush)
