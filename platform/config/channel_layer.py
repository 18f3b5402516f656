"""The Redis channel layer with a blocking connection pool.

channels-redis builds a plain redis-py pool, which raises "Too many connections" as soon as
more coroutines want a connection than ``max_connections``: a burst of websocket connects
(each one's ``group_add`` borrows a connection) lost group memberships that way (1,064 errors
while 5,000 sockets connected, docs/performance.md). A blocking pool makes the burst wait a
moment for a free connection instead; ``pool_timeout`` bounds the wait.

Connections of a pool handed to redis-py do not retry at all (``Retry(NoBackoff(), 0)``): after
a Redis restart every pooled connection failed once more — a lost frame or a socket refused with
500 each (the stack drills). They now reconnect and retry twice, shortly."""
from __future__ import annotations

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff


class BlockingPoolRedisChannelLayer(RedisChannelLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        if "address" not in host:  # sentinel or keyword configurations: the library's own pool
            return super().create_pool(index)
        address = host.pop("address")
        host.setdefault("retry", Retry(ExponentialBackoff(cap=0.5, base=0.05), 2))
        return BlockingConnectionPool.from_url(address, timeout=host.pop("pool_timeout", 10), **host)
