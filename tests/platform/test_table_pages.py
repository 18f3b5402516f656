"""The game table's server side: rules pages in both languages and the links to
them, moves answered in place for htmx (refusals keep their 4xx status), the last move's
highlight, and the final result numbered once."""
import re

import pytest

from games.rng import Rng
from lobby import services as lobby
from matches import services
from matches.models import Match
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game,lang,words", [
    ("alchemist", "en", ["Without schools", "Tribute", "By-products", "Forbidden"]),
    ("alchemist", "de", ["Ohne Schulen", "Tribut", "Nebenprodukte", "Verboten"]),
    ("orden", "en", ["Reactions", "Costs and payments", "Draw pile", "Path"]),
    ("orden", "de", ["Reaktionen", "Kosten und Bezahlen", "Nachziehstapel", "Pfad"]),
])
def test_rules_pages_in_both_languages(client, game, lang, words):
    page = client.get(f"/games/{game}/rules/", HTTP_ACCEPT_LANGUAGE=lang).content.decode().lower()
    for word in words:
        assert word.lower() in page, word


def test_a_game_without_rules_page_shows_its_summary(client):
    assert "A tiny test game." in client.get("/games/kartenduell/rules/").content.decode()
    assert client.get("/games/nosuchgame/rules/").status_code == 404


def test_rules_are_linked_from_lobby_invitation_form_and_game_page(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    client.force_login(alice)
    assert 'href="/games/alchemist/rules/"' in client.get("/lobby/").content.decode()
    assert 'href="/games/orden/rules/"' in client.get("/invitations/new/orden/").content.decode()
    invitation = lobby.create_invitation(alice, game="alchemist", players=2)
    invitation = lobby.join(invitation.pk, bob)
    page = client.get(f"/matches/{invitation.match_id}/").content.decode()
    assert 'id="rules-link"' in page and 'href="/games/alchemist/rules/"' in page


def test_htmx_moves_answer_the_live_part_and_refusals_keep_their_status(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    client.force_login(to_move_user(match))
    url = f"/matches/{match.pk}/act/"
    stale = client.post(url, {"version": 9, "action": '{"type":"draw"}'}, HTTP_HX_REQUEST="true")
    assert stale.status_code == 409
    assert 'id="move-messages"' in stale.content.decode() and "changed meanwhile" in stale.content.decode()
    bad = client.post(url, {"version": 0, "action": '{"type":"fly"}'}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and 'id="live"' in bad.content.decode()
    ok = client.post(url, {"version": 0, "action": '{"type":"draw"}'}, HTTP_HX_REQUEST="true")
    assert ok.status_code == 200 and 'data-version="1"' in ok.content.decode()
    assert "<html" not in ok.content.decode()  # the live part only
    plain = client.post(url, {"version": 0, "action": '{"type":"draw"}'})  # without JavaScript
    assert plain.status_code == 302 and plain.url == f"/matches/{match.pk}/"


def test_the_last_move_is_marked_on_the_board(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    invitation = lobby.create_invitation(alice, game="alchemist", players=2)
    match = Match.objects.get(pk=lobby.join(invitation.pk, bob).match_id)
    mover = to_move_user(match)
    seat = match.seats.get(user=mover).seat
    design = next(a for a in services.plugin_for(match).engine.legal_actions(match.state, seat)
                  if a["type"] == "design")
    services.submit_action(match.pk, mover, design, 0)
    client.force_login(alice if mover == bob else bob)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    marked = re.findall(r'<article data-anchor="cauldron-(\d+)" class="[^"]*is-last', page)
    assert marked == [str(design["cauldron"])]
    assert 'id="recap"' in page


def test_the_final_result_is_numbered_once(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    rng = Rng(1)
    while match.status == Match.Status.ACTIVE:
        user = to_move_user(match)
        seat = match.seats.get(user=user).seat
        plays = [a for a in services.plugin_for(match).engine.legal_actions(match.state, seat) if a["type"] == "play"]
        services.submit_action(match.pk, user, rng.choice(plays), match.version)
        match.refresh_from_db()
    client.force_login(alice)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    items = re.findall(r'<li data-place="\d">(.*?)</li>', page, re.S)
    assert len(items) == 2 and all(re.sub(r"<[^>]+>", "", i).count(".") == 1 for i in items)
    css = open("frontend/static/frontend/table.css").read()
    assert re.search(r"ol\.placements \{ list-style: none;", css)  # the place is written, not numbered
