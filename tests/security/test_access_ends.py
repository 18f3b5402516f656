"""Access ends at once: a socket opened before a logout or before the user was
deactivated gets no more frames and makes no more moves; deactivation also ends the user's
sessions and API tokens (accounts/access.py). Real consumers through the site's ASGI
application, authenticated by a real session cookie, as a browser's socket is."""
import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.contrib.sessions.models import Session
from django.test import Client
from rest_framework.authtoken.models import Token

from config.asgi import application
from matches.models import Match
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _socket(path: str, client: Client):
    from channels.testing import WebsocketCommunicator

    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return WebsocketCommunicator(application, path, headers=[
        (b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie)])


async def _closed(comm, timeout=3.0) -> int | None:
    """The close code once the server closed the socket (frames before it are skipped); None
    if nothing more came (the socket stayed open)."""
    while True:
        if await comm.receive_nothing(timeout=timeout):
            return None
        message = await comm.receive_output()
        if message["type"] == "websocket.close":
            return message.get("code")


async def _move(comm, version: int) -> dict | None:
    await comm.send_to(text_data=json.dumps({"type": "act", "action": {"type": "draw"}, "version": version,
                                             "ref": "r"}))
    while True:
        if await comm.receive_nothing(timeout=2):
            return None
        message = await comm.receive_output()
        if message["type"] == "websocket.close":
            return {"type": "closed"}
        frame = json.loads(message["text"])
        if frame["type"] in ("acted", "refused"):
            return frame


def test_logout_closes_the_sockets_opened_with_that_session_and_no_move_gets_through(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)
    browser, other_browser = _signed_in(mover), _signed_in(mover)

    async def scenario():
        seat = _socket(f"/ws/matches/{match.pk}/", browser)
        badge = _socket("/ws/me/", browser)
        elsewhere = _socket(f"/ws/matches/{match.pk}/", other_browser)
        for comm in (seat, badge, elsewhere):
            assert (await comm.connect())[0]
        response = await database_sync_to_async(browser.post)("/accounts/logout/")
        assert response.status_code == 302
        codes = [await _closed(seat), await _closed(badge)]
        after = await _move(seat, 0)
        still_open = await _closed(elsewhere, timeout=0.5)
        await elsewhere.disconnect()
        return codes, after, still_open

    codes, after, still_open = async_to_sync(scenario)()
    assert codes == [4401, 4401]
    assert after in (None, {"type": "closed"})  # nothing is answered "acted" any more
    assert still_open is None  # the user's other browser stays signed in, its socket too
    assert Match.objects.get(pk=match.pk).version == 0


def test_deactivation_ends_sessions_tokens_and_every_socket(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)
    other = bob if mover == alice else alice
    phone, laptop, opponent = _signed_in(mover), _signed_in(mover), _signed_in(other)
    Token.objects.create(user=mover)

    async def scenario():
        seat = _socket(f"/ws/matches/{match.pk}/", phone)
        badge = _socket("/ws/me/", laptop)
        theirs = _socket(f"/ws/matches/{match.pk}/", opponent)
        for comm in (seat, badge, theirs):
            assert (await comm.connect())[0]

        def deactivate():
            mover.refresh_from_db()
            mover.is_active = False
            mover.save()

        await database_sync_to_async(deactivate)()
        codes = [await _closed(seat), await _closed(badge)]
        after = await _move(seat, 0)
        opponent_open = await _closed(theirs, timeout=0.5)
        await theirs.disconnect()
        return codes, after, opponent_open

    codes, after, opponent_open = async_to_sync(scenario)()
    assert codes == [4401, 4401]
    assert after in (None, {"type": "closed"})
    assert opponent_open is None
    assert Match.objects.get(pk=match.pk).version == 0
    assert not Token.objects.filter(user=mover).exists()
    mine = [s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(mover.pk)]
    assert mine == []
    assert any(s.get_decoded().get("_auth_user_id") == str(other.pk) for s in Session.objects.all())
    # A new socket with the old cookie is a stranger's: refused on the seat, no badge socket.
    async def reconnect():
        comm = _socket("/ws/me/", phone)
        connected, _code = await comm.connect()
        return connected

    assert async_to_sync(reconnect)() is False


def test_a_rolled_back_deactivation_ends_nothing(make_user):
    from django.db import transaction

    alice = make_user("alice")
    client = _signed_in(alice)
    Token.objects.create(user=alice)

    async def scenario():
        badge = _socket("/ws/me/", client)
        assert (await badge.connect())[0]

        def deactivate_then_fail():
            try:
                with transaction.atomic():
                    alice.is_active = False
                    alice.save()
                    raise RuntimeError("rolled back")
            except RuntimeError:
                pass

        await database_sync_to_async(deactivate_then_fail)()
        code = await _closed(badge, timeout=0.5)
        await badge.disconnect()
        return code

    assert async_to_sync(scenario)() is None
    assert Token.objects.filter(user=alice).exists()
    assert client.get("/accounts/profile/").status_code == 200
