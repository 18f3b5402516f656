"""The game page's live part in the socket's frames (matches/livepart.py, frontend/live_push.py):
a page that asks in its hello gets the part rendered for its own user, so every seat sees only
its own hand, a spectator none; sockets that do not ask get the plain frames. And the page's
move form sent over the socket is read as its POST would be."""
import json
import re

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.asgi import application
from matches.models import LogEntry, Match
from tests.platform.helpers import seat_of, start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)


def _socket(match_id, user, csrf=None):
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    if csrf:
        headers.append((b"cookie", f"csrftoken={csrf}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/matches/{match_id}/", headers=headers)
    comm.scope["user"] = user
    return comm


async def _until(comm, *kinds):
    while True:
        frame = json.loads(await comm.receive_from(timeout=10))
        if frame["type"] in kinds:
            return frame


def _hand(html: str):
    found = re.search(r"&#x27;hand&#x27;: (None|\[[\d, ]*\])", html)
    assert found, "the generic board shows the view"
    return found.group(1)


def test_each_page_gets_its_own_live_part_and_a_plain_socket_the_frame(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)
    other = bob if mover == alice else alice
    secret = "a" * 32  # the browser's CSRF cookie: the part's forms carry a token for it

    async def scenario():
        pages = {"mover": _socket(match.pk, mover, secret), "other": _socket(match.pk, other),
                 "spectator": _socket(match.pk, AnonymousUser())}
        plain = _socket(match.pk, other)  # e.g. a bot or an API client: no "live" in its hello
        for comm in pages.values():
            assert (await comm.connect())[0]
            await comm.send_to(text_data=json.dumps({"type": "hello", "live": "de"}))
            await _until(comm, "state")
        assert (await plain.connect())[0]
        await plain.send_to(text_data=json.dumps({"type": "hello"}))
        await _until(plain, "state")
        # the mover's page sends its form as posted (the generic board: the action as JSON)
        await pages["mover"].send_to(text_data=json.dumps({
            "type": "act", "form": {"version": "0", "action": json.dumps({"type": "draw"})}, "version": 0, "ref": "f1"}))
        answer = await _until(pages["mover"], "acted", "refused")
        parts = {name: await _until(comm, "live", "match.update") for name, comm in pages.items()}
        frame = await _until(plain, "live", "match.update")
        for comm in [*pages.values(), plain]:
            await comm.disconnect()
        return answer, parts, frame

    answer, parts, frame = async_to_sync(scenario)()
    assert answer == {"type": "acted", "ref": "f1", "version": 1}
    assert LogEntry.objects.get(match=match, seq=1).action == {"type": "draw"}
    state = Match.objects.get(pk=match.pk).state
    assert frame["type"] == "match.update" and frame["version"] == 1
    for name in parts:
        assert parts[name]["type"] == "live" and parts[name]["version"] == 1
        assert 'id="live"' in parts[name]["html"] and 'data-version="1"' in parts[name]["html"]
    for name, user in (("mover", mover), ("other", other)):
        assert _hand(parts[name]["html"]) == repr(state["hands"][seat_of(match, user)])
    assert _hand(parts["spectator"]["html"]) == "None"
    assert "Warte auf die anderen" in parts["mover"]["html"]  # in the language the page asked for
    # the forms of the mover's part (take back, resign) carry a token of the socket's cookie
    from django.middleware.csrf import _unmask_cipher_token

    tokens = re.findall(r'name="csrfmiddlewaretoken" value="(\w+)"', parts["mover"]["html"])
    assert tokens and {_unmask_cipher_token(t) for t in tokens} == {secret}


def test_a_form_the_game_cannot_read_is_refused_and_changes_nothing(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)

    async def scenario():
        comm = _socket(match.pk, mover)
        assert (await comm.connect())[0]
        answers = []
        for ref, form in (("a", {"action": "not json"}), ("b", {"action": ["x"]}), ("c", "draw")):
            await comm.send_to(text_data=json.dumps({"type": "act", "form": form, "version": 0, "ref": ref}))
            answers.append(await _until(comm, "refused", "acted"))
        await comm.disconnect()
        return answers

    answers = async_to_sync(scenario)()
    assert [(a["type"], a["ref"], a["status"], a["error"]) for a in answers] == [
        ("refused", r, 400, "illegal_action") for r in "abc"]
    assert Match.objects.get(pk=match.pk).version == 0


def test_anonymous_spectators_share_one_render_of_a_version(make_user, monkeypatch):
    from matches import livepart, services

    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)
    rendered = []
    real = livepart.renderer()

    def counting(match_id, user, lang, cookie):
        rendered.append((user.is_authenticated, cookie))
        return real(match_id, user, lang, cookie)

    monkeypatch.setattr(livepart, "_renderer", counting)

    async def scenario():
        from channels.db import database_sync_to_async

        crowd = [_socket(match.pk, AnonymousUser(), csrf="b" * 32) for _ in range(4)]
        for comm in crowd:
            assert (await comm.connect())[0]
            await comm.send_to(text_data=json.dumps({"type": "hello", "live": "en"}))
            await _until(comm, "state")
        await database_sync_to_async(services.submit_action)(match.pk, mover, {"type": "draw"}, 0)
        parts = [await _until(comm, "live", "match.update") for comm in crowd]
        for comm in crowd:
            await comm.disconnect()
        return parts

    parts = async_to_sync(scenario)()
    assert [p["type"] for p in parts] == ["live"] * 4 and len({p["html"] for p in parts}) == 1
    assert rendered == [(False, None)]  # once, and without any one browser's CSRF cookie


def test_the_parts_of_one_version_share_one_read_of_the_clocks(make_user, client):
    """The socket server renders every open page's part after a change: the clocks (the same for
    every viewer) are read once for them; a page's own request reads them itself."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from frontend.live_push import render_part

    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)

    def clock_reads(fn):
        with CaptureQueriesContext(connection) as q:
            fn()
        return sum('"clocks_timecontrol"' in s["sql"] for s in q.captured_queries)

    assert clock_reads(lambda: render_part(match.pk, alice, "en", None)) == 1
    assert clock_reads(lambda: render_part(match.pk, bob, "en", None)) == 0
    client.force_login(alice)
    assert clock_reads(lambda: client.get(f"/matches/{match.pk}/live/")) == 1
    assert clock_reads(lambda: client.get(f"/matches/{match.pk}/live/")) == 1
    mover = to_move_user(match)
    from matches import services

    services.submit_action(match.pk, mover, _any_action(match), match.version)
    assert clock_reads(lambda: render_part(match.pk, bob, "en", None)) == 1  # a new version: read again


def _any_action(match):
    from games import registry

    match.refresh_from_db()
    engine = registry.get(match.game).engine
    return engine.legal_actions(match.state, match.to_move[0])[0]
