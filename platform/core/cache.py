"""A Redis cache that fails open: while Redis is down, reads miss and writes are dropped.

The cache only holds things that can be lost (throttle counters, log-in attempt counters,
cached fragments); without this, a stopped Redis turned every throttled request — moves
included — into a 500."""
from __future__ import annotations

import logging
import os

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.commands.core import Script
from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)
DOWN = (RedisConnectionError, RedisTimeoutError, OSError)


def _fail_open(name: str, default):
    method = getattr(RedisCache, name)

    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except DOWN:
            logger.warning("cache unavailable (%s); carrying on without it", name)
            return default(args) if callable(default) else default

    wrapper.__name__ = name
    return wrapper


_pools: dict = {}  # (process, server) -> redis-py connection pool (thread-safe)


class SharedPoolClient(RedisCacheClient):
    """Django makes a cache object, and so a connection pool, per request context: every
    request under ASGI opened a new Redis connection for its throttle counter. One pool per
    process and server instead."""

    def _get_connection_pool(self, write):
        server = self._servers[self._get_connection_pool_index(write)]
        key = (os.getpid(), server)  # a forked worker must not share its parent's sockets
        pool = _pools.get(key)
        if pool is None:
            pool = _pools.setdefault(key, self._pool_class.from_url(server, **self._pool_options))
        return pool


# INCR, and the time to live for a counter it just made: atomic on the server (no counter can be
# left without one). redis-py runs it by its hash (EVALSHA), loading it once per server.
_COUNT = Script(None, b"""local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n""")


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        options = params.setdefault("OPTIONS", {})
        # A hung Redis must not hang requests: give up after a short wait.
        options.setdefault("socket_connect_timeout", 0.5)
        options.setdefault("socket_timeout", 0.5)
        super().__init__(server, params)
        self._class = SharedPoolClient

    get = _fail_open("get", lambda args: args[1] if len(args) > 1 else None)
    get_many = _fail_open("get_many", {})
    has_key = _fail_open("has_key", False)
    set = _fail_open("set", None)
    set_many = _fail_open("set_many", [])
    add = _fail_open("add", False)
    touch = _fail_open("touch", False)
    delete = _fail_open("delete", False)
    delete_many = _fail_open("delete_many", None)
    incr = _fail_open("incr", 1)

    def count(self, key, timeout: int) -> int:
        """One more in the counter ``key`` (made with ``timeout`` seconds to live if missing):
        add + incr as one script, one command and round trip instead of three (add's SET NX,
        incr's EXISTS and INCRBY). The value is the plain integer both would have stored."""
        key = self.make_and_validate_key(key)
        try:
            return _COUNT(keys=[key], args=[self.get_backend_timeout(timeout)],
                          client=self._cache.get_client(key, write=True))
        except DOWN:
            logger.warning("cache unavailable (count); carrying on without it")
            return 1
    get_or_set = _fail_open("get_or_set", lambda args: args[1]() if len(args) > 1 and callable(args[1])
                            else (args[1] if len(args) > 1 else None))
