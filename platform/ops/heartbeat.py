"""Heartbeats: the Celery worker's main process writes the time every ``EVERY_S`` seconds into
a Redis hash (field: the worker's name); beat's ``ops.tasks.beat_heartbeat``, run by a worker,
writes another. The health check and the metrics read the newest. A write that fails (Redis
away) is simply tried again at the next beat."""
from __future__ import annotations

import logging
import threading
import time

from .redis_client import client

logger = logging.getLogger(__name__)

WORKERS_KEY = "spieltisch:ops:workers"
BEAT_KEY = "spieltisch:ops:beat"
EVERY_S = 5.0
FORGET_AFTER_S = 86400  # a worker gone for a day leaves the hash


def beat(name: str, now: float | None = None) -> None:
    r = client()
    if r is not None:
        r.hset(WORKERS_KEY, name, repr(time.time() if now is None else now))


def newest_age(now: float | None = None) -> float | None:
    """Seconds since the newest worker heartbeat; None if no worker ever wrote one. Raises
    if Redis cannot be read."""
    r = client()
    if r is None:
        return None
    stamps = {k: float(v) for k, v in r.hgetall(WORKERS_KEY).items()}
    if not stamps:
        return None
    now = time.time() if now is None else now
    gone = [k for k, v in stamps.items() if now - v > FORGET_AFTER_S]
    if gone:
        r.hdel(WORKERS_KEY, *gone)
    return max(0.0, now - max(stamps.values()))


def beat_age(now: float | None = None) -> float | None:
    r = client()
    value = r.get(BEAT_KEY) if r is not None else None
    return None if value is None else max(0.0, (time.time() if now is None else now) - float(value))


def _loop(name: str) -> None:
    while True:
        try:
            beat(name)
        except Exception as exc:  # Redis away: the next beat tries again
            logger.debug("heartbeat not written: %s", exc)
        time.sleep(EVERY_S)


def start_on_worker(sender=None, **_) -> None:
    """Celery's ``worker_ready``: a daemon thread in the worker's main process."""
    name = getattr(sender, "hostname", None) or "worker"
    threading.Thread(target=_loop, args=(name,), name="ops-heartbeat", daemon=True).start()
