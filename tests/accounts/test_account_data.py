"""Their data theirs (contract "Accounts"): the export, the deletion that
erases the person and keeps the games whole, and the legal pages linked from every page."""
import json

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches import chat, notes
from matches.models import ChatMessage, LogEntry, Match, Seat
from ratings import services as rating_services
from ratings.models import Rating, RatingChange
from tests.platform.helpers import start_minigame
from tests.ratings.play import play_to_end, plays_only

pytestmark = pytest.mark.django_db
PASSWORD = "pw-Secret-123"


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_export_holds_profile_matches_with_visible_logs_chat_notes_and_settings(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    chat.post(match.pk, anna, "Viel Glück!")
    chat.post(match.pk, bert, "Danke")
    notes.save(match.pk, anna, "Plan: früh tauschen")
    api = _api(anna)
    r = api.get("/api/account/export/")
    assert r.status_code == 200 and "attachment" in r["Content-Disposition"]
    data = r.json()
    assert {"profile", "matches", "chat", "notes", "notification_settings"} <= set(data)
    assert data["profile"]["username"] == "anna" and data["profile"]["email"] == "anna@example.org"
    assert [m["text"] for m in data["chat"]] == ["Viel Glück!"]  # her lines, not bert's
    assert data["notes"] == [{"match": match.pk, "text": "Plan: früh tauschen", "updated_at": data["notes"][0]["updated_at"]}]
    (exported,) = data["matches"]
    # The log exactly as the API shows it to her (hidden moves of others stay hidden).
    assert exported["log"] == api.get(f"/api/matches/{match.pk}/log/").json()
    assert "bert" in exported["players"] and "Danke" not in json.dumps(data)
    assert APIClient().get("/api/account/export/").status_code in (401, 403)


def test_delete_needs_the_password_and_changes_nothing_without_it(make_user):
    anna = make_user("anna")
    api = _api(anna)
    assert api.post("/api/account/delete/", {}, format="json").status_code == 400
    r = api.post("/api/account/delete/", {"password": "wrong"}, format="json")
    assert r.status_code == 403 and r.json()["error"]
    anna.refresh_from_db()
    assert anna.username == "anna" and anna.is_active and anna.email


def test_delete_erases_the_person_and_keeps_the_games_whole(make_user, client):
    anna, bert, cora = make_user("anna"), make_user("bert"), make_user("cora")
    finished = play_to_end(start_minigame(anna, bert), plays_only)
    rating_services.rate_match(finished.pk)  # the worker's task, here in-process
    running = start_minigame(anna, cora)
    chat.post(running.pk, anna, "meine Telefonnummer ist 0123")
    token = Token.objects.create(user=anna)
    client.force_login(anna)
    bert_rating = list(Rating.objects.filter(user=bert).values("mu", "sigma", "shown", "games"))
    changes = list(RatingChange.objects.filter(match=finished).order_by("user_id").values())
    log_before = list(LogEntry.objects.filter(match=finished).order_by("seq").values("seq", "action", "events"))
    assert bert_rating and changes

    r = _api(anna).post("/api/account/delete/", {"password": PASSWORD}, format="json")
    assert r.status_code == 204

    ghost = get_user_model().objects.get(pk=anna.pk)
    assert ghost.username.startswith("deleted-") and ghost.email == "" and not ghost.is_active
    assert not ghost.has_usable_password() and ghost.profile.display_name == ""
    assert not ChatMessage.objects.filter(user=ghost).exists()
    assert "0123" not in json.dumps(list(ChatMessage.objects.values_list("text", flat=True)))
    # Gone for log-in, session and token.
    assert not APIClient().login(username="anna", password=PASSWORD)
    assert client.get("/accounts/profile/").status_code == 302
    token_client = APIClient()
    token_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert token_client.get("/api/account/export/").status_code in (401, 403)
    # The games stay whole: same log, same results, bert's rating unchanged, a placeholder seat.
    assert list(LogEntry.objects.filter(match=finished).order_by("seq").values("seq", "action", "events")) == log_before
    assert list(RatingChange.objects.filter(match=finished).order_by("user_id").values()) == changes
    assert list(Rating.objects.filter(user=bert).values("mu", "sigma", "shown", "games")) == bert_rating
    detail = _api(bert).get(f"/api/matches/{finished.pk}/").json()
    assert "anna" not in json.dumps(detail) and ghost.username in json.dumps(detail)
    # The running match goes on without her: resigned, cora plays on or has won.
    assert Seat.objects.get(match=running, user=ghost).resigned or \
        Match.objects.get(pk=running.pk).status != Match.Status.ACTIVE
    replay = _api(bert).get(f"/api/matches/{finished.pk}/log/")
    assert replay.status_code == 200 and "anna" not in json.dumps(replay.json())


def test_deletion_leaves_no_name_or_line_in_other_peoples_notifications(make_user):
    from notifications.models import Notification

    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    Notification.objects.create(user=bert, kind="chat_mention", match=match, key="chat:test",
                                data={"player": "anna", "line": "@bert meine Telefonnummer ist 0123",
                                      "opponents": ["anna"], "match": match.pk})
    Notification.objects.create(user=bert, kind="invitation_declined", key="declined:test",
                                data={"invitation": -1, "host": "bert", "player": "anna"})
    Notification.objects.create(user=bert, kind="invitation_joined", key="joined:other",
                                data={"invitation": -2, "host": "bert", "player": "anna"})
    from lobby.models import Entry, Invitation

    invitation = Invitation.objects.create(host=bert, game=match.game, players=2, seats_taken=1)
    Entry.objects.create(invitation=invitation, user=anna)
    Notification.objects.filter(key="declined:test").update(data={"invitation": invitation.pk, "host": "bert",
                                                                  "player": "anna"})
    assert "anna" in json.dumps(list(Notification.objects.filter(user=bert).values_list("data", flat=True)))

    assert _api(anna).post("/api/account/delete/", {"password": PASSWORD}, format="json").status_code == 204

    kept = {n.key: n.data for n in Notification.objects.filter(user=bert)}
    about_her = {key: data for key, data in kept.items() if key != "joined:other"}
    assert about_her and "anna" not in json.dumps(about_her) and "0123" not in json.dumps(kept)
    assert kept["joined:other"]["player"] == "anna"  # another "anna" elsewhere: not hers to scrub


def test_the_page_deletes_with_password_and_confirmation(make_user, client):
    anna = make_user("anna")
    client.force_login(anna)
    page = client.get("/account/data/").content.decode()
    assert "/api/account/export/" in page and 'name="password"' in page
    assert "/account/data/" in client.get("/accounts/profile/").content.decode()
    r = client.post("/account/data/", {"password": "wrong", "confirm": "on"})
    assert r.status_code == 200 and get_user_model().objects.get(pk=anna.pk).is_active
    r = client.post("/account/data/", {"password": PASSWORD})  # without the tick: nothing
    assert r.status_code == 200 and get_user_model().objects.get(pk=anna.pk).is_active
    r = client.post("/account/data/", {"password": PASSWORD, "confirm": "on"})
    assert r.status_code == 302 and not get_user_model().objects.get(pk=anna.pk).is_active
    assert client.get("/account/data/").status_code == 302  # logged out


def test_wrong_passwords_for_deletion_are_limited(make_user):
    anna = make_user("anna")
    api = _api(anna)
    statuses = [api.post("/api/account/delete/", {"password": f"guess{i}"}, format="json").status_code
                for i in range(6)]
    assert statuses == [403] * 5 + [429]
    assert api.post("/api/account/delete/", {"password": PASSWORD}, format="json").status_code == 429


@pytest.mark.parametrize("path", ["/privacy/", "/imprint/", "/terms/"])
def test_legal_pages_in_both_languages_from_the_operator_settings(client, settings, path):
    settings.SITE_OPERATOR = {"name": "Erika Mustermann", "address": "Musterweg 1|12345 Musterstadt",
                              "email": "kontakt@example.org", "phone": "", "representative": "Erika Mustermann",
                              "register": "", "vat_id": "", "hosting": "Beispiel-Hosting GmbH"}
    en = client.get(path + "?lang=en").content.decode()
    de = client.get(path + "?lang=de").content.decode()
    assert "Erika Mustermann" in en and "Erika Mustermann" in de and en != de
    if path != "/terms/":
        assert "Musterweg 1<br>12345 Musterstadt" in en and "kontakt@example.org" in de
    settings.SITE_OPERATOR = {}
    assert "SITE_OPERATOR_NAME" in client.get(path).content.decode()  # says what is missing


@pytest.mark.parametrize("path", ["/accounts/signup/", "/lobby/", "/accounts/login/", "/no-such-page/"])
def test_every_page_links_the_legal_pages_in_its_footer(client, path):
    html = client.get(path).content.decode()
    footer = html[html.index("<footer"):]
    for link in ("/privacy/", "/imprint/", "/terms/"):
        assert f'href="{link}"' in footer
