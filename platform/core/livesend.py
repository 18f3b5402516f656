"""group_send from synchronous code over one long-lived event loop per process.

``async_to_sync(layer.group_send)`` outside a server's loop runs each call in a fresh event
loop, and channels_redis keeps its connections per loop: every frame paid for a new Redis
connection (about 8 ms). With the Redis layer the frames go through one background loop
instead, reusing its connections; other layers (in-memory on the embedded default) keep
async_to_sync, so tests there see every frame at once.
"""
from __future__ import annotations

import asyncio
import logging
import os
import threading

from asgiref.sync import async_to_sync

logger = logging.getLogger(__name__)

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


def _is_redis(layer) -> bool:
    # isinstance, not the module name: the site's layer is a subclass in core.channel_layer.
    try:
        from channels_redis.core import RedisChannelLayer
        from channels_redis.pubsub import RedisPubSubChannelLayer
    except ImportError:
        return False
    return isinstance(layer, (RedisChannelLayer, RedisPubSubChannelLayer))


def group_send(layer, group: str, message: dict, timeout: float = 5.0) -> None:
    if _is_redis(layer):
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _background_loop()).result(timeout)
    else:
        async_to_sync(layer.group_send)(group, message)


def group_send_soon(layer, messages: list[tuple[str, dict]]) -> None:
    """Every message, concurrently, without waiting for Redis (Redis layer): a move's response
    need not wait for its frames. Failures are logged; clients catch up by version, and a
    frame that overtakes an older one makes the older one a no-op (frontend/live.js)."""
    async def send_all():
        many = getattr(layer, "group_send_many", None)
        if many is not None:  # our Redis layer: all groups in two round trips
            try:
                await many(messages)
            except Exception as exc:
                logger.warning("push of %d frames failed: %r", len(messages), exc)
            return
        results = await asyncio.gather(*(layer.group_send(g, m) for g, m in messages), return_exceptions=True)
        for (group, _), result in zip(messages, results):
            if isinstance(result, BaseException):
                logger.warning("push to %s failed: %r", group, result)

    if _is_redis(layer):
        asyncio.run_coroutine_threadsafe(send_all(), _background_loop())
    else:
        async_to_sync(send_all)()
