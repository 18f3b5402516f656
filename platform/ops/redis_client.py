"""One small Redis client per process for the operations data (heartbeats, socket counts,
queue depths): short timeouts, so a health check or a scrape answers while Redis is down."""
from __future__ import annotations

import threading

from django.conf import settings

_lock = threading.Lock()
_clients: dict[str, object] = {}


def client(url: str | None = None):
    """The client for ``url`` (default: REDIS_URL), or None on the embedded default."""
    url = url if url is not None else getattr(settings, "REDIS_URL", "")
    if not url or not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    with _lock:
        if url not in _clients:
            import redis

            _clients[url] = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2,
                                                 health_check_interval=10)
        return _clients[url]
