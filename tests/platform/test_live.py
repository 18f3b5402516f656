"""Live updates over the Channels websocket: per-seat frames after commit, filtered views."""
import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from config.asgi import application
from matches import services
from tests.conftest import wait_for
from tests.platform.helpers import seat_of, start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)


def _communicator(match_id, user=None, path=None):
    comm = WebsocketCommunicator(application, path or f"/ws/matches/{match_id}/",
                                 headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")])
    if user is not None:
        comm.scope["user"] = user
    return comm


def test_each_seat_and_spectators_get_their_own_view(make_user):
    from django.contrib.auth.models import AnonymousUser

    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)

    async def scenario():
        sockets = {"alice": _communicator(match.pk, alice), "bob": _communicator(match.pk, bob),
                   "spectator": _communicator(match.pk, AnonymousUser())}
        for comm in sockets.values():
            connected, _ = await comm.connect()
            assert connected
        from channels.db import database_sync_to_async

        await database_sync_to_async(services.submit_action)(match.pk, mover, {"type": "draw"}, 0)
        frames = {}
        for name, comm in sockets.items():
            while True:
                frame = json.loads(await comm.receive_from(timeout=5))
                if frame["type"] == "match.update":
                    frames[name] = frame
                    break
            await comm.disconnect()
        return frames

    frames = async_to_sync(scenario)()
    assert {f["version"] for f in frames.values()} == {1}
    assert frames["spectator"]["view"]["hand"] is None
    for name, user in (("alice", alice), ("bob", bob)):
        seat = seat_of(match, user)
        assert frames[name]["view"]["hand"] == match.__class__.objects.get(pk=match.pk).state["hands"][seat]
    assert frames["alice"]["view"]["hand"] != frames["bob"]["view"]["hand"]


def test_private_match_refuses_strangers(make_user):
    from django.contrib.auth.models import AnonymousUser

    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob, private=True, invitees=["bob"])

    async def scenario():
        comm = _communicator(match.pk, AnonymousUser())
        connected, code = await comm.connect()
        return connected, code

    connected, code = async_to_sync(scenario)()
    assert not connected and code == 4403


def test_turn_badge_frames(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)
    waiter = bob if mover == alice else alice

    async def scenario():
        comm = _communicator(None, waiter, path="/ws/me/")
        assert (await comm.connect())[0]
        from channels.db import database_sync_to_async

        await database_sync_to_async(services.submit_action)(match.pk, mover, {"type": "draw"}, 0)
        frame = json.loads(await comm.receive_from(timeout=5))
        await comm.disconnect()
        return frame

    frame = async_to_sync(scenario)()
    assert frame == {"type": "turn", "match": match.pk, "count": 1}


def test_turn_badges_go_only_to_players_whose_turn_began_or_ended(make_user):
    """Three players: a move changes the counts of the mover and the next player only; the
    third player's badge gets no frame (it would say the same number again)."""
    users = [make_user(n) for n in ("alice", "bob", "carol")]
    match = start_minigame(*users)
    mover = to_move_user(match)
    mover_seat = seat_of(match, mover)
    next_user = match.seats.get(seat=(mover_seat + 1) % 3).user
    third = next(u for u in users if u not in (mover, next_user))

    async def scenario():
        from channels.db import database_sync_to_async

        comms = {}
        for user in (next_user, third):
            comms[user.username] = _communicator(None, user, path="/ws/me/")
            assert (await comms[user.username].connect())[0]
        await database_sync_to_async(services.submit_action)(match.pk, mover, {"type": "draw"}, 0)
        got_next = json.loads(await comms[next_user.username].receive_from(timeout=5))
        third_silent = await comms[third.username].receive_nothing(timeout=0.5)
        for comm in comms.values():
            await comm.disconnect()
        return got_next, third_silent

    got_next, third_silent = async_to_sync(scenario)()
    assert got_next == {"type": "turn", "match": match.pk, "count": 1}
    assert third_silent


def test_a_socket_that_says_hello_catches_up_on_what_it_missed(make_user):
    """Frames sent before a socket joined are not sent again: a move made while the waiting
    player's page loaded. {"type": "hello"} answers with what they would have said by now."""
    from django.contrib.auth.models import AnonymousUser

    from notifications.models import Notification

    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)
    waiter = bob if mover == alice else alice
    services.submit_action(match.pk, mover, {"type": "draw"}, 0)  # no socket is open yet
    # the "your turn" the move gave them (written by the follow-up, in the worker on pass 2)
    wait_for(lambda: Notification.objects.filter(user=waiter, kind="your_turn").exists())
    # The bell's count: the centre's entries with news (one per match, one per other notification).
    new = Notification.objects.filter(user=waiter, read_at__isnull=True)
    unread = len({n.match_id or -n.pk for n in new})

    async def scenario():
        answers = {}
        for name, user, path in (("seat", waiter, None), ("me", waiter, "/ws/me/"),
                                 ("spectator", AnonymousUser(), None), ("mover", mover, None)):
            comm = _communicator(match.pk, user, path=path)
            assert (await comm.connect())[0]
            assert await comm.receive_nothing(timeout=0.2)  # nothing unasked
            await comm.send_to(text_data='{"type": "hello"}')
            answers[name] = json.loads(await comm.receive_from(timeout=5))
            await comm.disconnect()
        return answers

    answers = async_to_sync(scenario)()
    assert answers["seat"] == {"type": "state", "turns": 1, "unread": unread, "match": match.pk, "version": 1,
                               "chat_unread": 0, "chat_last": 0}
    assert answers["me"] == {"type": "state", "turns": 1, "unread": unread}
    assert answers["spectator"] == {"type": "state", "match": match.pk, "version": 1, "chat_last": 0}
    assert answers["mover"]["turns"] == 0 and answers["mover"]["version"] == 1


def test_hello_is_answered_a_few_times_then_not(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    start_minigame(alice, bob)

    async def scenario():
        comm = _communicator(None, alice, path="/ws/me/")
        assert (await comm.connect())[0]
        for _ in range(5):
            await comm.send_to(text_data='{"type": "hello"}')
        frames = []
        while not await comm.receive_nothing(timeout=0.3):
            frames.append(json.loads(await comm.receive_from()))
        await comm.send_to(text_data='{"type": "act"}')  # not taken on this socket: no answer
        silent = await comm.receive_nothing(timeout=0.3)
        await comm.disconnect()
        return frames, silent

    frames, silent = async_to_sync(scenario)()
    assert [f["type"] for f in frames] == ["state"] * 3 and silent
