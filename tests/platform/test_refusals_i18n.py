"""Refusals of the services reach pages and the API in the user's language, not in English only."""
import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from community import services as community
from lobby import services as lobby
from matches import services
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db


def _german(user):
    user.profile.language = "de"
    user.profile.save()
    return user


def _client(user):
    c = Client()
    c.force_login(user)
    return c


def test_lobby_and_block_refusals_on_german_pages(make_user):
    host, pest = make_user("host"), _german(make_user("pest"))
    community.block(host, "pest")
    invitation = lobby.create_invitation(host, game="kartenduell", players=3)
    page = _client(pest).post(f"/invitations/{invitation.pk}/join/", {}, follow=True).content.decode()
    assert "Du kannst dieser Einladung nicht beitreten: Zwischen dir und einem der Spieler besteht eine " \
           "Blockierung." in page
    page = _client(pest).post(f"/invitations/{invitation.pk}/cancel/", follow=True).content.decode()
    assert "Nur der Gastgeber kann eine Einladung zurückziehen." in page
    # A private invitation addressed across a block: the form says why, in German.
    r = _client(pest).post("/invitations/new/kartenduell/", {
        "players": 2, "move_days": 3, "bots": 0, "private": "on", "invitees": "host"})
    assert "Du kannst host nicht einladen: Zwischen euch besteht eine Blockierung." in r.content.decode()


def test_chat_refusal_for_a_blocked_writer_in_german(make_user):
    alice, pest = make_user("alice"), _german(make_user("pest"))
    match = start_minigame(alice, pest)
    community.block(alice, "pest")
    page = _client(pest).post(f"/matches/{match.pk}/chat/", {"text": "hallo"}, follow=True).content.decode()
    assert "Ein Spieler dieser Partie hat dich blockiert; du kannst in ihrem Chat nicht schreiben." in page


def test_undo_refusals_in_german(make_user):
    alice, bob = _german(make_user("alice")), make_user("bob")
    match = start_minigame(alice, bob)
    if to_move_user(match) == alice:  # the start player is drawn by lot; let bob's move come last
        services.submit_action(match.pk, alice, {"type": "draw"}, match.version)
        match.refresh_from_db()
    services.submit_action(match.pk, bob, {"type": "draw"}, match.version)
    match.refresh_from_db()
    c = _client(alice)
    page = c.post(f"/matches/{match.pk}/undo/", {"version": match.version}, follow=True).content.decode()
    assert "Zurücknehmen kannst du nur deinen eigenen letzten Zug" in page
    match.refresh_from_db()
    services.submit_action(match.pk, alice, {"type": "draw"}, match.version)  # a draw reveals a card
    match.refresh_from_db()
    page = c.post(f"/matches/{match.pk}/undo/", {"version": match.version}, follow=True).content.decode()
    assert "Dieser Zug gilt: Er hat verdeckte Informationen aufgedeckt, den Zufall genutzt" in page


def test_api_errors_follow_the_request_language(make_user):
    host, pest = make_user("host"), make_user("pest")
    community.block(host, "pest")
    invitation = lobby.create_invitation(host, game="kartenduell", players=3)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=pest).key}")
    url = f"/api/invitations/{invitation.pk}/join/"
    r = api.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert r.status_code == 403
    assert r.json()["detail"].startswith("Du kannst dieser Einladung nicht beitreten")
    r = api.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert r.json()["detail"].startswith("You cannot join this invitation")
    # A signed-in user's profile language counts too, and a game's own reason follows it.
    match = start_minigame(_german(make_user("anna")), make_user("ben"))
    mover = to_move_user(match)
    _german(mover)
    api = APIClient()
    api.force_login(mover)
    r = api.post(f"/api/matches/{match.pk}/actions/", {"action": {"type": "nonsense"}, "version": match.version},
                 format="json")
    assert r.status_code == 400 and r.json()["detail"].startswith("Kein erlaubter Zug")
    r = api.post(f"/api/matches/{match.pk}/undo/", {"version": match.version}, format="json")
    assert r.status_code == 409
    assert r.json()["detail"] == "Zurücknehmen kannst du nur deinen eigenen letzten Zug, und nur, solange danach " \
                                 "noch niemand anderes gehandelt hat."
