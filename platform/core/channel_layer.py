"""The Redis channel layer with a blocking connection pool.

channels-redis builds a plain redis-py pool, which raises "Too many connections" as soon as
more coroutines want a connection than ``max_connections``: a burst of websocket connects
(each one's ``group_add`` borrows a connection) lost group memberships that way (1,064 errors
while 5,000 sockets connected, docs/performance.md, "Measured choices"). A blocking pool makes the burst wait a
moment for a free connection instead; ``pool_timeout`` bounds the wait.

Connections of a pool handed to redis-py do not retry at all (``Retry(NoBackoff(), 0)``): after
a Redis restart every pooled connection failed once more — a lost frame or a socket refused with
500 each (the stack drills). They now reconnect and retry twice, shortly."""
from __future__ import annotations

import logging
import time

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

logger = logging.getLogger(__name__)


def _retry() -> Retry:
    """Reconnect and try a command twice more, shortly (50–500 ms): enough for a Redis restart."""
    return Retry(ExponentialBackoff(cap=0.5, base=0.05), 2)


class BlockingPoolRedisChannelLayer(RedisChannelLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        if "address" not in host:  # sentinel or keyword configurations: the library's own pool
            return super().create_pool(index)
        address = host.pop("address")
        host.setdefault("retry", _retry())
        return BlockingConnectionPool.from_url(address, timeout=host.pop("pool_timeout", 10), **host)

    # --- every frame of one change in two Redis round trips ---------------------------------------
    # The library's group_send costs four round trips per group (expire the group, read it, expire
    # each channel's messages, an EVAL that sends the script's text); a 4-player move's 7 groups took
    # 28. group_send_many reads every group in one pipeline and delivers every message with one
    # EVALSHA. The same Lua work per key as the library's (expire old messages, respect capacity).
    _DELIVER = """
        local n = #KEYS
        local now, expiry = tonumber(ARGV[2 * n + 1]), tonumber(ARGV[2 * n + 2])
        local over = 0
        for i = 1, n do
            redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, now - expiry)
            if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
                redis.call('ZADD', KEYS[i], now, ARGV[i])
                redis.call('EXPIRE', KEYS[i], expiry)
            else
                over = over + 1
            end
        end
        return over
    """
    GROUP_EXPIRE_EVERY = 50  # stale group members are dropped on every 50th batch (each group_send did it)

    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        if self.ring_size != 1:  # several Redis hosts: the library's way, group by group
            for group, message in messages:
                await self.group_send(group, message)
            return
        connection = self.connection(0)
        self._batches = getattr(self, "_batches", 0) + 1
        pipe = connection.pipeline(transaction=False)
        if self._batches % self.GROUP_EXPIRE_EVERY == 1:
            for group, _ in messages:
                pipe.zremrangebyscore(self._group_key(group), min=0, max=int(time.time()) - self.group_expiry)
        for group, _ in messages:
            pipe.zrange(self._group_key(group), 0, -1)
        replies = (await pipe.execute())[-len(messages):]
        keys, payloads, capacities = [], [], []
        for (group, message), members in zip(messages, replies):
            if not members:
                continue
            _, to_message, to_capacity = self._map_channel_keys_to_connection(
                [m.decode("utf8") for m in members], message)
            for key, payload in to_message.items():
                keys.append(key)
                payloads.append(payload)
                capacities.append(to_capacity[key])
        if not keys:
            return
        script = getattr(self, "_deliver_script", None)
        if script is None:
            script = self._deliver_script = connection.register_script(self._DELIVER)
        over = await script(keys=keys, args=[*payloads, *capacities, time.time(), self.expiry], client=connection)
        if over:
            logger.info("%s of %s channel keys over capacity", over, len(keys))


class PubSubChannelLayer(RedisPubSubChannelLayer):
    """channels-redis's pub/sub layer: each process holds one subscribed connection and hands
    arriving messages to its own sockets, instead of one blocking pop per message as the list
    based layer does. Frames are fire-and-forget (a socket away at that moment misses them and
    catches up by version, frontend/live.js), which is what live frames are.

    Connections retry a command twice after a dropped connection (a Redis restart), like the
    pool above; group_send_many publishes a change's frames in one pipelined round trip."""

    def __init__(self, *args, hosts=None, **kwargs):
        hosts = [dict(h, retry=_retry()) if isinstance(h, dict) else h
                 for h in (hosts or [])]
        super().__init__(*args, hosts=hosts or None, **kwargs)

    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        layer = self._get_layer()
        by_shard: dict = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            by_shard.setdefault(layer._get_shard(channel), []).append((channel, self.serialize(message)))
        for shard, items in by_shard.items():
            async with shard._lock:
                shard._ensure_redis()
                pipe = shard._redis.pipeline(transaction=False)
                for channel, data in items:
                    pipe.publish(channel, data)
                await pipe.execute()
