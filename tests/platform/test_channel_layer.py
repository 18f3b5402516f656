"""The Redis channel layer's pool waits for a free connection instead of failing a burst."""
import asyncio

import pytest
from django.conf import settings


@pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis channel layer: real-services pass")
def test_a_burst_larger_than_the_pool_waits_instead_of_failing():
    from config.channel_layer import BlockingPoolRedisChannelLayer

    layer = BlockingPoolRedisChannelLayer(hosts=[{"address": settings.REDIS_URL, "max_connections": 3}],
                                          prefix="burst-test")

    async def burst():
        names = [await layer.new_channel() for _ in range(60)]
        await asyncio.gather(*(layer.group_add("burst", name) for name in names))
        await layer.group_send("burst", {"type": "x.y", "n": 1})
        got = await asyncio.gather(*(asyncio.wait_for(layer.receive(name), 5) for name in names[:5]))
        await asyncio.gather(*(layer.group_discard("burst", name) for name in names))
        await layer.close_pools()
        return got

    got = asyncio.run(burst())
    assert [m["n"] for m in got] == [1] * 5
