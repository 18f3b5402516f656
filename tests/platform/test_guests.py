"""Guest accounts and the guided match without an account: "Try it now" makes a guest
that plays the guided match, is refused everything else with an offer to sign up, keeps its match
when it signs up, is removed a day later otherwise, and is made at most ``guest-ip`` times an hour
per address. The hint suggests the strongest bot's move, with a reason, and plays it on request."""
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.guests import is_guest
from guide.models import GuidedMatch
from guide.tasks import remove_stale_guests
from matches.models import ChatMessage, Match, Seat
from matches.services import play_bots
from tests.addresses import fresh_ip

pytestmark = [pytest.mark.django_db]
PASSWORD = "Lange-Passphrase-9"


@pytest.fixture
def guest():
    def make(lang="en", game="alchemist"):
        client, guided = _guest(lang, game)
        play_bots(guided.match_id)  # a bot that begins (a task after the commit on the site)
        return client, guided
    return make


def _guest(lang="en", game="alchemist"):
    client = Client(REMOTE_ADDR=fresh_ip())
    client.cookies["django_language"] = lang
    r = client.post(f"/learn/{game}/try/")
    guided = GuidedMatch.objects.order_by("-created_at").first()
    assert r.status_code == 302 and r.url == f"/matches/{guided.match_id}/"
    return client, guided


def test_try_it_now_makes_a_guest_that_plays_the_guided_match_only(guest):
    client, guided = guest("de")
    user = guided.learner
    assert is_guest(user) and user.email == "" and not user.has_usable_password()
    assert user.username.startswith("guest-") and user.profile.language == "de"
    page = client.get(f"/matches/{guided.match_id}/").content.decode()
    # the hint suggests a move with its reason, in German; no chat, no report link for a guest
    assert 'id="guide-suggestion"' in page and "Vorgeschlagener Zug:" in page and 'id="chat-form"' not in page
    assert 'id="report-match"' not in page and 'id="guest-signup"' in page
    # a second "Try it now" continues the same match with the same guest
    assert client.post("/learn/alchemist/try/").url == f"/matches/{guided.match_id}/"
    assert get_user_model().objects.filter(profile__guest_since__isnull=False, pk=user.pk).count() == 1
    # everything else that needs an account: refused with an offer to sign up
    for url in ("/my-games/", "/invitations/new/", "/tournaments/new/", "/notifications/settings/",
                "/accounts/profile/", "/lobby/"):
        r = client.get(url)
        assert r.status_code == 302 and r.url.startswith("/accounts/signup/?next="), url
    r = client.post(f"/matches/{guided.match_id}/chat/", {"text": "hallo"})
    assert r.status_code == 302 and r.url == "/accounts/signup/"
    r = client.post(f"/matches/{guided.match_id}/chat/", {"text": "hallo"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 403 and r["HX-Redirect"] == "/accounts/signup/"
    r = client.get("/api/matches/")
    assert r.status_code == 403 and r.json()["error"] == "guest_account"
    signup = client.get("/accounts/signup/").content.decode()
    assert "Als Gast kannst du die geführte Partie spielen." in signup and "Behalte deine Partie" in signup
    assert not ChatMessage.objects.filter(match_id=guided.match_id).exists()


def test_playing_the_suggested_move_and_signing_up_keeps_the_match(guest, django_capture_on_commit_callbacks):
    client, guided = guest("en")
    match = guided.match
    for _ in range(60):  # the suggested move each turn; the bot answers inline (eager)
        match.refresh_from_db()
        if match.status != "active":
            break
        r = client.post(f"/learn/matches/{match.pk}/suggested/", {"version": match.version})
        assert r.status_code == 302, r.status_code
        play_bots(match.pk)  # the bot's answer (a task after the commit on the site)
    match.refresh_from_db()
    assert match.status == "finished"
    end = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="guide-signup"' in end and 'id="guide-suggestion"' not in end
    assert 'id="rematch"' not in end  # a guest's next step is signing up, not a rematch
    # a stale version is refused with a clear word, nothing played
    assert client.post(f"/learn/matches/{match.pk}/suggested/", {"version": 0}).status_code == 302
    assert client.post("/accounts/signup/", {"username": "guest-mine", "email": "n@example.org", "language": "en",
                                             "password1": PASSWORD, "password2": PASSWORD}).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post("/accounts/signup/", {"username": "neu-hier", "email": "neu-hier@example.org",
                                              "language": "en", "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302 and r.url == "/my-games/"
    user = get_user_model().objects.get(username="neu-hier")
    assert user.pk == guided.learner_id and not is_guest(user)
    assert Seat.objects.filter(match=match, user=user).exists()
    assert [m.to for m in mail.outbox] == [["neu-hier@example.org"]]  # the confirmation link, nothing before
    page = client.get("/my-games/").content.decode()
    assert f"/matches/{match.pk}/" in page
    assert Client().login(username="neu-hier", password=PASSWORD)


def test_a_guest_is_removed_after_a_day_with_its_match():
    _client, old = _guest()
    _client, fresh = _guest()
    old.learner.profile.guest_since = timezone.now() - timedelta(hours=25)
    old.learner.profile.save()
    real = get_user_model().objects.create_user("echt", email="echt@example.org", password=PASSWORD)
    assert remove_stale_guests() == 1
    assert not get_user_model().objects.filter(pk=old.learner_id).exists()
    assert not Match.objects.filter(pk=old.match_id).exists()
    assert Match.objects.filter(pk=fresh.match_id).exists() and get_user_model().objects.filter(pk=real.pk).exists()


def test_guests_are_rate_limited_per_address():
    from web.ratelimit import limits

    client = Client(REMOTE_ADDR=fresh_ip())
    limit = limits()["guest-ip"]
    statuses = []
    for _ in range(limit + 2):
        client.logout()  # a new visitor from the same address each time
        statuses.append(client.post("/learn/alchemist/try/").status_code)
    assert statuses[:limit] == [302] * limit and statuses[limit:] == [429, 429]
    refused = client.post("/learn/alchemist/try/")  # a page in the site's frame, saying how long to wait
    page = refused.content.decode()
    assert refused.status_code == 429 and 'id="throttled"' in page and '<header class="top">' in page
    assert "Too many attempts. Please wait" in page and int(refused["Retry-After"]) > 0
    assert get_user_model().objects.filter(profile__guest_since__isnull=False).count() == limit
    signed_in = Client(REMOTE_ADDR=fresh_ip())
    signed_in.force_login(get_user_model().objects.create_user("lerner", password=PASSWORD))
    assert signed_in.post("/learn/alchemist/try/").status_code == 302  # no guest made: not counted


def test_sign_up_points_a_new_account_to_the_guided_match():
    client = Client(REMOTE_ADDR=fresh_ip())
    r = client.post("/accounts/signup/", {"username": "anfang", "email": "anfang@example.org", "language": "en",
                                          "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302 and r.url == "/lobby/"
    assert 'id="first-steps-start"' in client.get("/lobby/").content.decode()
    client.post("/learn/not-now/")
    assert 'id="first-steps' not in client.get("/lobby/").content.decode()
    landing = Client().get("/").content.decode()
    assert 'id="landing-try"' in landing and 'action="/learn/alchemist/try/"' in landing
