"""The site around the table, without a browser: the served address for mail links, the chat's
catch-up endpoint, the live lists' polls (204 while unchanged, constant queries), the landing,
help and guided-match pages and their hints."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext, override_settings

from web import served
from games import registry
from guide.hints import hints
from lobby import services as lobby
from matches import chat
from matches.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _forget_origin(monkeypatch):
    monkeypatch.setattr(served, "_origin", None)
    from django.core.cache import cache

    cache.delete(served.CACHE_KEY)


@override_settings(SITE_URL="")
def test_site_url_follows_the_served_address_not_the_host_header():
    request = RequestFactory().get("/", SERVER_NAME="127.0.0.1", SERVER_PORT="9312", HTTP_HOST="evil.example")
    assert served.site_url() == served.DEFAULT  # nothing served yet
    served.remember(request)
    assert served.site_url() == "http://127.0.0.1:9312"
    from notifications import conf

    assert conf.site_url() == "http://127.0.0.1:9312"


@override_settings(SITE_URL="https://spiel.example/")
def test_a_set_site_url_wins():
    served.remember(RequestFactory().get("/", SERVER_NAME="127.0.0.1", SERVER_PORT="9312"))
    assert served.site_url() == "https://spiel.example"


@override_settings(SITE_URL="")
def test_the_middleware_remembers_the_address_of_a_request(client, settings):
    # the test client's made-up "testserver" is no address
    client.get("/help/")
    assert served.site_url() == served.DEFAULT
    client.get("/help/", SERVER_NAME="127.0.0.1", SERVER_PORT="9313")
    assert served.site_url() == "http://127.0.0.1:9313"


def _match(make_user, game="alchemist"):
    a, b = make_user("alma"), make_user("bruno")
    inv = lobby.create_invitation(a, game=game, players=2)
    inv = lobby.join(inv.pk, b)
    return Match.objects.get(pk=inv.match_id), a, b


def test_chat_lines_after_an_id(client, make_user, django_user_model):
    match, a, b = _match(make_user)
    first = chat.post(match.pk, a, "eins")
    chat.post(match.pk, b, "zwei")
    client.force_login(b)
    answer = client.get(f"/matches/{match.pk}/chat/lines/?after={first.pk}").json()
    assert [(line["user"], line["text"]) for line in answer["lines"]] == [("bruno", "zwei")]
    assert client.get(f"/matches/{match.pk}/chat/lines/?after=x").status_code == 400
    # a private match's chat is for its players only
    Match.objects.filter(pk=match.pk).update(public=False)
    client.force_login(make_user("stranger"))
    assert client.get(f"/matches/{match.pk}/chat/lines/?after=0").status_code == 404


def test_the_lobby_poll_answers_204_while_unchanged_with_constant_queries(client, make_user):
    host = make_user("host")
    client.force_login(make_user("viewer"))
    page = client.get("/lobby/")
    assert page.status_code == 200
    import re

    url = re.search(r'id="lobby-live" hx-get="([^"]+)"', page.content.decode()).group(1).replace("&amp;", "&")
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 204
    lobby.create_invitation(host, game="orden", players=3)
    with CaptureQueriesContext(connection) as one:
        changed = client.get(url, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and b"data-invitation" in changed.content
    for _ in range(5):
        lobby.create_invitation(host, game="alchemist", players=2)
    with CaptureQueriesContext(connection) as six:
        assert client.get(url, HTTP_HX_REQUEST="true").status_code == 200
    assert len(six) == len(one)


def test_my_games_poll_shows_the_turn_change(client, make_user):
    from games import registry
    from matches import services as matches

    match, a, b = _match(make_user)
    mover = a if match.seats.get(user=a).seat in match.to_move else b
    waiter = b if mover == a else a
    client.force_login(waiter)
    import re

    page = client.get("/my-games/").content.decode()
    url = re.search(r'id="my-games-live" hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 204
    action = registry.get("alchemist").engine.legal_actions(match.state, match.to_move[0])[-1]
    matches.submit_action(match.pk, mover, action, match.version)
    changed = client.get(url, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and b"Your turn" in changed.content


def test_landing_for_visitors_my_games_for_players(client, make_user):
    page = client.get("/")
    assert page.status_code == 200 and b'id="landing-signup"' in page.content and b'/games/orden/rules/' in page.content
    client.force_login(make_user("alma"))
    assert client.get("/").url == "/my-games/"


def test_help_and_learn_pages(client):
    assert client.get("/help/").status_code == 200
    learn = client.get("/learn/")
    assert learn.status_code == 200 and b'id="learn-alchemist"' in learn.content


@pytest.mark.parametrize("game", ["alchemist", "orden"])
def test_a_guided_match_against_the_bot_shows_hints(client, make_user, game):
    from guide.models import GuidedMatch

    user = make_user("lerner")
    client.force_login(user)
    assert client.get(f"/learn/{game}/").status_code == 405  # starts by POST only
    answer = client.post(f"/learn/{game}/")
    match = Match.objects.get(pk=int(answer.url.strip("/").split("/")[-1]))
    assert GuidedMatch.objects.filter(match=match, learner=user).exists()
    seats = list(match.seats.all())
    assert sorted(bool(s.bot) for s in seats) == [False, True] and not match.public
    assert client.post(f"/learn/{game}/").url == answer.url  # the running one continues
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="guide-hint"' in page
    # the bot has answered (eagerly here): it is the learner's turn, the hint names moves
    match.refresh_from_db()
    mine = next(s.seat for s in seats if not s.bot)
    if mine in match.to_move:
        assert "What you can do now" in page
    # another player of the same match sees no hints: only the learner's table has them
    assert 'id="guide-hint"' not in client.get(f"/matches/{_match(make_user)[0].pk}/").content.decode()


def test_hints_name_each_kind_of_legal_move_in_both_languages():
    for game, plugin in registry.plugins().items():
        for kind, (en, de) in plugin.guide()["hints"].items():
            assert en and de and en != de
    legal = [{"type": "pass", "take": "blue"}, {"type": "design"}, {"type": "pass", "draw": True}]
    out = hints("alchemist", legal, "de")
    assert [s.split(":")[0] for s in out["steps"]] == ["Passen", "Entwerfen"]
    assert hints("alchemist", [], "en")["waiting"].startswith("The bot")
    assert hints("orden", [{"type": "end_turn"}], "en")["steps"][0].startswith("End turn")
