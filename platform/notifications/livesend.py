"""group_send from synchronous code over one long-lived event loop per process.

``async_to_sync(layer.group_send)`` runs each call in a fresh event loop, and channels_redis
keeps its connections per loop: every frame paid for a new Redis connection (about 8 ms).
With the Redis layer the frames go through one background loop instead, reusing its
connections; other layers (in-memory on the embedded default) keep async_to_sync.
"""
from __future__ import annotations

import asyncio
import os
import threading

from asgiref.sync import async_to_sync

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_pid = None


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop, _pid
    with _lock:
        if _loop is None or _pid != os.getpid():  # a forked worker needs its own thread
            _loop, _pid = asyncio.new_event_loop(), os.getpid()
            threading.Thread(target=_loop.run_forever, name="live-send", daemon=True).start()
        return _loop


def group_send(layer, group: str, message: dict, timeout: float = 5.0) -> None:
    if type(layer).__module__.startswith("channels_redis"):
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _background_loop()).result(timeout)
    else:
        async_to_sync(layer.group_send)(group, message)
