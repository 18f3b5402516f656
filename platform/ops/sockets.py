"""How many websockets each server process holds. A process counts its own (connect and
disconnect only, never per frame) and a daemon thread writes the count every ``EVERY_S``
seconds to its own Redis key with a short expiry, so a process that died drops out of the
sum by itself. ``total()`` adds the live keys up (the metrics' ``spieltisch_sockets``)."""
from __future__ import annotations

import logging
import os
import socket
import threading
import time

from .redis_client import client

logger = logging.getLogger(__name__)

PREFIX = "spieltisch:ops:sockets:"
EVERY_S = 5.0
EXPIRE_S = 20

_lock = threading.Lock()
_count = 0
_reporter_pid: int | None = None


def opened() -> None:
    global _count, _reporter_pid
    with _lock:
        _count += 1
        if _reporter_pid != os.getpid():  # first socket of this (forked) process
            _reporter_pid = os.getpid()
            threading.Thread(target=_report, name="ops-sockets", daemon=True).start()


def closed() -> None:
    global _count
    with _lock:
        _count = max(0, _count - 1)


def local() -> int:
    return _count


def _key() -> str:
    return f"{PREFIX}{socket.gethostname()}:{os.getpid()}"


def _report() -> None:
    while True:
        try:
            r = client()
            if r is not None:
                r.set(_key(), _count, ex=EXPIRE_S)
        except Exception as exc:  # Redis away: written again at the next tick
            logger.debug("socket count not written: %s", exc)
        time.sleep(EVERY_S)


def total() -> tuple[int, int]:
    """(sockets, server processes reporting) over every process; this process's own count on
    the embedded default."""
    r = client()
    if r is None:
        return _count, 1
    keys = list(r.scan_iter(match=PREFIX + "*", count=500))
    values = [int(v) for v in r.mget(keys) if v is not None] if keys else []
    return sum(values), len(values)
