"""Caps on websockets (matches/socketcaps.py): one user's sockets share one move
bucket, a user holds at most SOCKETS_PER_USER sockets and one address at most
ANONYMOUS_SOCKETS_PER_ADDRESS anonymous ones. Real consumers through the site's ASGI app."""
import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.asgi import application
from matches import socketcaps
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)


def _socket(path, user=None, address="127.0.0.1"):
    comm = WebsocketCommunicator(application, path,
                                 headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")])
    comm.scope["user"] = user if user is not None else AnonymousUser()
    comm.scope["client"] = (address, 50000)
    return comm


async def _until(comm, kind):
    while True:
        frame = json.loads(await comm.receive_from(timeout=5))
        if frame["type"] == kind:
            return frame


def test_one_users_sockets_share_one_move_bucket(make_user, settings):
    """Ten sockets of one player, one move each at once: past the user's burst they are
    throttled, however many sockets the moves came over (before: each socket had 20)."""
    settings.USER_MOVE_RATE, settings.USER_MOVE_BURST = 0.0, 4
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)

    async def scenario():
        comms = [_socket(f"/ws/matches/{match.pk}/", mover) for _ in range(10)]
        for comm in comms:
            assert (await comm.connect())[0]
        for i, comm in enumerate(comms):
            await comm.send_to(text_data=json.dumps({"type": "act", "action": {"type": "draw"}, "version": 99,
                                                     "ref": i}))
        answers = [await _until(comm, "refused") for comm in comms]
        for comm in comms:
            await comm.disconnect()
        return [a["status"] for a in answers]

    statuses = async_to_sync(scenario)()
    assert sorted(statuses) == [409] * 4 + [429] * 6
    assert socketcaps.held(f"u{mover.pk}") == 0  # every place given back


def test_sockets_per_user_are_capped(make_user, settings):
    settings.SOCKETS_PER_USER = 3
    alice = make_user("alice")

    async def scenario():
        comms = [_socket("/ws/me/", alice) for _ in range(4)]
        results = [(await comm.connect())[0] for comm in comms]
        await comms[0].disconnect()  # one closes: one more may open
        again = _socket("/ws/me/", alice)
        reopened = (await again.connect())[0]
        for comm in (*comms[1:3], again):
            await comm.disconnect()
        return results, reopened

    results, reopened = async_to_sync(scenario)()
    assert results == [True, True, True, False]
    assert reopened is True
    assert socketcaps.held(f"u{alice.pk}") == 0


def test_anonymous_sockets_per_address_are_capped(make_user, settings):
    settings.ANONYMOUS_SOCKETS_PER_ADDRESS = 3
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)  # public: spectators may watch

    async def scenario():
        comms = [_socket(f"/ws/matches/{match.pk}/", address="203.0.113.7") for _ in range(4)]
        results = [(await comm.connect())[0] for comm in comms]
        elsewhere = _socket(f"/ws/matches/{match.pk}/", address="203.0.113.8")
        other = (await elsewhere.connect())[0]
        for comm in (*comms[:3], elsewhere):
            await comm.disconnect()
        return results, other

    results, other = async_to_sync(scenario)()
    assert results == [True, True, True, False]
    assert other is True
    assert socketcaps.held("ip203.0.113.7") == 0
