"""The Redis channel layer's pool waits for a free connection instead of failing a burst."""
import asyncio

import pytest
from django.conf import settings


@pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis channel layer: real-services pass")
def test_a_burst_larger_than_the_pool_waits_instead_of_failing():
    from core.channel_layer import BlockingPoolRedisChannelLayer

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


@pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis channel layer: real-services pass")
@pytest.mark.parametrize("kind", ["PubSubChannelLayer", "BlockingPoolRedisChannelLayer"])
def test_group_send_many_delivers_each_group_its_own_message(kind):
    """A change's frames in one batch: every member of every group gets that group's message
    (members of one process share a Redis key), nobody gets another group's, an empty group is
    skipped, and a second batch arrives too."""
    from core import channel_layer

    layer = getattr(channel_layer, kind)(hosts=[{"address": settings.REDIS_URL}], prefix="many-test")

    async def run():
        seats = [await layer.new_channel() for _ in range(3)]
        watcher = await layer.new_channel()
        for i, name in enumerate(seats):
            await layer.group_add(f"seat.{i}", name)
            await layer.group_add("everyone", name)
        await layer.group_add("everyone", watcher)
        for version in (1, 2):
            await layer.group_send_many([(f"seat.{i}", {"type": "f", "seat": i, "v": version}) for i in range(3)]
                                        + [("nobody", {"type": "f", "seat": None, "v": version}),
                                           ("everyone", {"type": "f", "seat": "all", "v": version})])
        got = {name: [await asyncio.wait_for(layer.receive(name), 5) for _ in range(4 if name != watcher else 2)]
               for name in [*seats, watcher]}
        extra = await asyncio.gather(*(asyncio.wait_for(layer.receive(n), 0.3) for n in [*seats, watcher]),
                                     return_exceptions=True)
        await layer.flush()
        if hasattr(layer, "close_pools"):
            await layer.close_pools()
        return seats, watcher, got, extra

    seats, watcher, got, extra = asyncio.run(run())
    for i, name in enumerate(seats):
        assert sorted((m["v"], str(m["seat"])) for m in got[name]) == [(1, str(i)), (1, "all"), (2, str(i)), (2, "all")]
    assert [(m["v"], m["seat"]) for m in got[watcher]] == [(1, "all"), (2, "all")]
    assert all(isinstance(e, asyncio.TimeoutError) for e in extra)
