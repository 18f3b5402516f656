"""The web pages: flows through forms, and constant query counts on list pages."""
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from lobby import services as lobby
from matches.models import Match
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db


def _login(client, user):
    client.force_login(user)
    return client


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_lobby_query_count_is_constant(client, make_user):
    viewer = make_user("viewer")
    _login(client, viewer)
    hosts = [make_user(f"h{i}") for i in range(30)]
    for h in hosts[:3]:
        lobby.create_invitation(h, game="kartenduell", players=3)
    few = _queries(client, "/lobby/")
    for h in hosts[3:]:
        inv = lobby.create_invitation(h, game="kartenduell", players=4, options={"short": True})
        lobby.join(inv.pk, hosts[0])
    many = _queries(client, "/lobby/")
    assert few == many, f"lobby: {few} queries with 3 invitations, {many} with 30"
    page = client.get("/lobby/?opt_short=1").content.decode()
    assert page.count("data-invitation=") == 27


def test_my_games_query_count_is_constant(client, make_user):
    me, other = make_user("me"), make_user("other")
    _login(client, me)
    start_minigame(me, other)
    few = _queries(client, "/my-games/")
    for _ in range(15):
        start_minigame(me, other)
    many = _queries(client, "/my-games/")
    assert few == many, f"my games: {few} queries with 1 match, {many} with 16"


def _waiting_for(match, user, *, touch=False):
    """Let whoever is to move draw until ``user`` is to move: the start player is drawn by lot,
    so the test arranges whose turn it is instead of hoping for it. ``touch``: at least one
    move, so that this match is the most recently changed."""
    from matches import services

    moved = False
    while to_move_user(match) != user or (touch and not moved):
        services.submit_action(match.pk, to_move_user(match), {"type": "draw"}, match.version)
        moved = True
    return match


def test_my_games_lists_my_turn_first_and_next_game_jumps(client, make_user):
    from matches import services

    me, other = make_user("me"), make_user("other")
    _login(client, me)
    mine = [_waiting_for(start_minigame(me, other), me) for _ in range(2)]
    # The matches waiting for the other player changed last: newest-first alone would list them first.
    theirs = [_waiting_for(start_minigame(me, other), other, touch=True) for _ in range(2)]
    html = client.get("/my-games/").content.decode()
    order = [int(x) for x in re.findall(r'data-match="(\d+)"', html)]
    assert set(order[:2]) == {m.pk for m in mine} and set(order[2:]) == {m.pk for m in theirs}, order
    r = client.get("/next-game/")
    assert r.status_code == 302 and int(r.url.rstrip("/").split("/")[-1]) in {m.pk for m in mine}
    # Once I have moved everywhere, nothing waits for me and "next game" says so.
    for m in mine:
        m.refresh_from_db()
        services.submit_action(m.pk, me, {"type": "draw"}, m.version)
    r = client.get("/next-game/")
    assert r.status_code == 302 and r.url == "/my-games/"


def test_create_join_and_play_through_pages(client, make_user):
    from django.test import Client

    alice, bob = make_user("alice"), make_user("bob")
    ca, cb = _login(client, alice), _login(Client(), bob)
    r = ca.post("/invitations/new/kartenduell/", {"players": 2, "move_days": 3, "opt_short": "on", "bots": 0})
    assert r.status_code == 302, r.content.decode()[:2000]
    inv_url = r.url
    assert "Card duel" in cb.get("/lobby/").content.decode()
    r = cb.post(inv_url + "join/")
    assert r.status_code == 302 and "/matches/" in r.url
    match = Match.objects.get()
    assert match.options == {"short": True}
    clients = {alice.id: ca, bob.id: cb}
    for _ in range(50):
        match.refresh_from_db()
        if match.status == "finished":
            break
        mover = clients[match.seats.get(seat=match.to_move[0]).user_id]
        page = mover.get(f"/matches/{match.pk}/").content.decode()
        actions = re.findall(r'name="action" value="([^"]+)"', page)
        assert actions, "the mover's page offers the legal moves"
        action = json.loads(actions[0].replace("&quot;", '"'))
        r = mover.post(f"/matches/{match.pk}/act/", {"version": match.version, "action": json.dumps(action)})
        assert r.status_code == 302
    assert match.status == "finished"
    page = ca.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="placements"' in page


def test_stale_and_bad_form_posts_show_a_message(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = match.seats.get(seat=match.to_move[0]).user
    _login(client, mover)
    r = client.post(f"/matches/{match.pk}/act/", {"version": 5, "action": '{"type":"draw"}'}, follow=True)
    assert "The game has changed meanwhile" in r.content.decode()
    r = client.post(f"/matches/{match.pk}/act/", {"version": 0, "action": "{{{"}, follow=True)
    assert "could not be read" in r.content.decode()
    match.refresh_from_db()
    assert match.version == 0


def test_invitation_form_errors_are_shown(client, make_user):
    _login(client, make_user("alice"))
    r = client.post("/invitations/new/kartenduell/", {"players": 2, "move_days": 99})
    assert r.status_code == 200 and "errorlist" in r.content.decode()
    r = client.post("/invitations/new/kartenduell/", {"players": 2, "move_days": 3, "private": "on",
                                                       "invitees": "nobody"})
    assert "Unknown user: nobody" in r.content.decode()


def test_german_pages(client, make_user):
    user = make_user("anna")
    user.profile.language = "de"
    user.profile.save()
    _login(client, user)
    html = client.get("/lobby/").content.decode()
    assert "Offene Einladungen" in html and "Meine Spiele" in html


def test_chat(client, make_user):
    alice, bob, eve = make_user("alice"), make_user("bob"), make_user("eve")
    match = start_minigame(alice, bob)
    _login(client, alice)
    client.post(f"/matches/{match.pk}/chat/", {"text": "Viel Glück!"})
    assert "Viel Glück!" in client.get(f"/matches/{match.pk}/").content.decode()
    _login(client, eve)
    r = client.post(f"/matches/{match.pk}/chat/", {"text": "spam"}, follow=True)
    assert "Only the players" in r.content.decode()
    assert match.chat.count() == 1


def test_private_match_live_part_and_chat_stay_private(client, make_user):
    alice, bob, eve = make_user("alice"), make_user("bob"), make_user("eve")
    match = start_minigame(alice, bob, private=True, invitees=["bob"])
    _login(client, alice)
    client.post(f"/matches/{match.pk}/chat/", {"text": "Nur für Bob"})
    assert client.get(f"/matches/{match.pk}/live/?version={match.version}").status_code == 204
    for stranger in (eve, None):
        c = _login(client.__class__(), stranger) if stranger else client.__class__()
        # the polling shortcut must not confirm the version, nor htmx's chat answer show the chat
        assert c.get(f"/matches/{match.pk}/live/?version={match.version}").status_code in (302, 404)
        r = c.post(f"/matches/{match.pk}/chat/", {"text": "hallo"}, HTTP_HX_REQUEST="true")
        assert r.status_code in (302, 404) and "Nur für Bob" not in r.content.decode()



def test_polling_fallback_answers_204_until_the_match_changes(client, make_user):
    from matches import services

    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    _login(client, alice)
    url = f"/matches/{match.pk}/live/?version=0"
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 204
    assert len([q for q in ctx.captured_queries if "matches_match" in q["sql"]]) == 1
    services.submit_action(match.pk, match.seats.get(seat=match.to_move[0]).user, {"type": "draw"}, 0)
    r = client.get(url)
    assert r.status_code == 200 and 'data-version="1"' in r.content.decode()


def test_undo_and_resign_refusals_in_german(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    alice.profile.language = "de"
    alice.profile.save()
    match = start_minigame(alice, bob)
    _login(client, alice)
    r = client.post(f"/matches/{match.pk}/undo/", {"version": 7}, follow=True)
    assert "Die Partie hat sich inzwischen geändert" in r.content.decode()
    client.post(f"/matches/{match.pk}/resign/")
    r = client.post(f"/matches/{match.pk}/resign/", follow=True)
    assert "Diese Partie ist beendet." in r.content.decode()
