"""Moves over the match socket (matches/socketmoves.py): the same single writer as the HTTP
API, answered on the socket; refusals carry the API's error shape and status."""
import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from config.asgi import application
from matches import socketmoves
from matches.models import LogEntry, Match
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)


def _socket(match_id, user):
    comm = WebsocketCommunicator(application, f"/ws/matches/{match_id}/",
                                 headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")])
    comm.scope["user"] = user
    return comm


async def _until(comm, kind):
    while True:
        frame = json.loads(await comm.receive_from(timeout=5))
        if frame["type"] == kind:
            return frame


def test_a_move_over_the_socket_is_applied_and_every_seat_gets_its_frame(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)
    other = bob if mover == alice else alice

    async def scenario():
        mine, theirs = _socket(match.pk, mover), _socket(match.pk, other)
        assert (await mine.connect())[0] and (await theirs.connect())[0]
        await mine.send_to(text_data=json.dumps({"type": "act", "action": {"type": "draw"}, "version": 0,
                                                 "ref": "m1"}))
        answer = await _until(mine, "acted")
        frame = await _until(theirs, "match.update")
        await mine.disconnect()
        await theirs.disconnect()
        return answer, frame

    answer, frame = async_to_sync(scenario)()
    assert answer == {"type": "acted", "ref": "m1", "version": 1}
    assert frame["version"] == 1
    assert Match.objects.get(pk=match.pk).version == 1
    assert LogEntry.objects.get(match=match, seq=1).action == {"type": "draw"}


def test_refusals_carry_status_code_and_change_nothing(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    carol = make_user("carol")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)
    waiter = bob if mover == alice else alice

    async def scenario():
        mine, theirs, stranger = _socket(match.pk, mover), _socket(match.pk, waiter), _socket(match.pk, carol)
        for comm in (mine, theirs, stranger):
            assert (await comm.connect())[0]
        answers = []
        for comm, text in (
            (mine, json.dumps({"type": "act", "action": {"type": "draw"}, "version": 7, "ref": 1})),
            (mine, json.dumps({"type": "act", "action": {"type": "fly"}, "version": 0, "ref": 2})),
            (mine, json.dumps({"type": "act", "action": "draw", "version": 0, "ref": 3})),
            (theirs, json.dumps({"type": "act", "action": {"type": "draw"}, "version": 0, "ref": 4})),
            (stranger, json.dumps({"type": "act", "action": {"type": "draw"}, "version": 0, "ref": 5})),
            (mine, "[" * 5000 + "]" * 5000),
            (mine, "not json"),
            (mine, json.dumps({"type": "chat", "ref": 8})),
        ):
            await comm.send_to(text_data=text)
            answers.append(await _until(comm, "refused"))
        for comm in (mine, theirs, stranger):
            await comm.disconnect()
        return answers

    answers = async_to_sync(scenario)()
    assert [(a["status"], a["error"]) for a in answers] == [
        (409, "stale_version"), (400, "illegal_action"), (400, "illegal_action"), (403, "not_your_turn"),
        (403, "not_seated"), (400, "invalid"), (400, "invalid"), (400, "invalid")]
    assert answers[0]["version"] == 0 and answers[0]["ref"] == 1
    assert all(a["detail"] for a in answers)
    assert Match.objects.get(pk=match.pk).version == 0
    assert not LogEntry.objects.filter(match=match, seq__gt=0).exists()


def test_a_busy_server_sheds_moves_with_503_and_retry_after(make_user, monkeypatch):
    """More moves waiting for the database thread than MAX_WAITING: refused at once, applied never."""
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)
    monkeypatch.setattr(socketmoves, "_waiting", socketmoves.MAX_WAITING)

    async def scenario():
        mine = _socket(match.pk, mover)
        assert (await mine.connect())[0]
        await mine.send_to(text_data=json.dumps({"type": "act", "action": {"type": "draw"}, "version": 0,
                                                 "ref": "x"}))
        answer = await _until(mine, "refused")
        await mine.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    assert answer["status"] == 503 and answer["error"] == "busy" and answer["retry_after"] >= 1
    assert Match.objects.get(pk=match.pk).version == 0


def test_a_socket_that_floods_is_throttled():
    bucket = socketmoves.Bucket(rate=0.0, burst=3)
    assert [bucket.take() for _ in range(5)] == [True, True, True, False, False]


def test_refusals_follow_the_players_language(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)
    mover.profile.language = "de"
    mover.profile.save()

    async def scenario():
        mine = _socket(match.pk, mover)
        assert (await mine.connect())[0]
        await mine.send_to(text_data=json.dumps({"type": "act", "action": {"type": "draw"}, "version": 3}))
        answer = await _until(mine, "refused")
        await mine.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    assert answer["error"] == "stale_version" and "Version" in answer["detail"] and answer["ref"] is None


@pytest.mark.realservices  # PostgreSQL: SQLite's in-memory test database is never closed anyway
def test_move_threads_keep_their_connection_where_conn_max_age_is_0(settings):
    """A socket server that also serves pages runs with CONN_MAX_AGE 0; its move threads still
    keep their connections (a new one per move or render cost the click-to-screen path)."""
    from django.db import connection

    assert connection.settings_dict["CONN_MAX_AGE"] == 0

    def which():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return socketmoves.threading.get_ident(), cursor.fetchone()[0]

    async def moves():
        return [await socketmoves.on_threads(which) for _ in range(6)]

    seen = {}
    for thread, conn in async_to_sync(moves)():
        seen.setdefault(thread, set()).add(conn)
    assert seen and all(len(conns) == 1 for conns in seen.values())
