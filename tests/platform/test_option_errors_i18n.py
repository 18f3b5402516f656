"""Refused invitation options and seat choices (games.base.BadOptions) reach the lobby pages
and the API in the request's language: the games give an English and a German text."""
import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.orden import decks
from games.orden.web.models import SavedDeck
from lobby import services as lobby

pytestmark = pytest.mark.django_db


def _api(user):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


def _detail(api, url, data, lang):
    r = api.post(url, data, format="json", HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 400, r.content
    return r.json()["detail"]


def test_api_option_and_seat_choice_errors_follow_the_request_language(make_user):
    host, guest = make_user("host"), make_user("guest")
    api = _api(host)
    bad_players = {"game": "kartenduell", "players": 9}
    assert _detail(api, "/api/invitations/", bad_players, "de") == "Kartenduell wird von 2 bis 4 Spielern gespielt."
    assert _detail(api, "/api/invitations/", bad_players, "en") == "Card duel is played by 2 to 4 players."
    too_long = {"game": "orden", "players": 2, "options": {"deadline_days": 400}}
    assert _detail(api, "/api/invitations/", too_long, "de") == \
        "Die Option „Zeitlimit in Tagen (0 = aus)“ ('deadline_days') darf höchstens 365 sein."
    assert _detail(api, "/api/invitations/", too_long, "en") == "Option 'deadline_days' must be at most 365."
    unknown = {"game": "alchemist", "players": 2, "options": {"schools": False}}
    assert _detail(api, "/api/invitations/", unknown, "de") == "Unbekannte Option(en) für Alchemist: schools."

    # Joining with a deck that is not on offer: the seat choice's German label ("Deck").
    inv = lobby.create_invitation(host, game="orden", players=2)
    url = f"/api/invitations/{inv.pk}/join/"
    guest_api = _api(guest)
    de = _detail(guest_api, url, {"choices": {"deck": "starter:drache"}}, "de")
    assert de.startswith("Die Auswahl „Deck“ ('deck') muss einer dieser Werte sein: starter:schwert")
    en = _detail(guest_api, url, {"choices": {"deck": "starter:drache"}}, "en")
    assert en.startswith("Choice 'deck' must be one of: starter:schwert")


@pytest.mark.parametrize("language, expected", [
    ("de", "Der Pfad muss jeden Rang genau einmal in der richtigen Reihenfolge enthalten"),
    ("en", "The path must hold every rank once, in order"),
])
def test_join_page_shows_the_deck_refusal_in_the_users_language(make_user, language, expected):
    host, guest = make_user("host"), make_user("guest")
    guest.profile.language = language
    guest.profile.save()
    # A saved deck stored before a rules correction, so it no longer validates at join time.
    starter = decks.starter("buch")
    stale = SavedDeck.objects.create(owner=guest, name="Alt", pfad=starter["pfad"][::-1], cards=starter["cards"])
    inv = lobby.create_invitation(host, game="orden", players=2)
    client = Client()
    client.force_login(guest)
    page = client.post(f"/invitations/{inv.pk}/join/", {"choice_deck": f"deck:{stale.pk}"}, follow=True)
    assert expected in page.content.decode()
    assert not inv.entries.filter(user=guest).exists()
