"""The API move path's lean parts keep the contract: token authentication in one plain
statement (same refusals), the match with its seats and their users in one statement (seat
order, names, bot seats), a well-formed action body past the serializer (a malformed one still
gets its answer), the site's CSP header built once per host (same text), and the rate-limit
counter in one Redis command (same value and lifetime)."""
from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils.csp import build_policy
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from core import plainsql
from matches import services
from matches.models import Match, Seat

pytestmark = pytest.mark.django_db


def _match_with_a_bot(alice, bob):
    """A match of alice, bob and a bot in which a person moves first."""
    for seed in range(1, 50):
        with transaction.atomic():
            match = services.start_match(game="kartenduell", options={}, seed=seed, entrants=[
                {"user": alice, "bot": "", "choices": {}}, {"user": bob, "bot": "", "choices": {}},
                {"user": None, "bot": "random-legal", "choices": {}}])
        if match.seats.get(seat=match.to_move[0]).user_id:
            return match
    raise AssertionError("no seed lets a person begin")


def _token_client(user) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return c


def test_a_token_move_answers_the_seats_in_order_with_names_and_bots(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = _match_with_a_bot(alice, bob)
    mover = match.seats.get(seat=match.to_move[0]).user
    action = next(iter(services.plugin_for(match).engine.legal_actions(match.state, match.to_move[0])))
    r = _token_client(mover).post(f"/api/matches/{match.pk}/actions/", {"action": action, "version": 0},
                                  format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    expected = [{"seat": s.seat, "user": {"id": s.user_id, "username": s.user.username} if s.user_id else None,
                 "bot": s.bot or None} for s in Seat.objects.filter(match=match).select_related("user")]
    assert [{k: s[k] for k in ("seat", "user", "bot")} for s in body["seats"]] == expected
    assert body["version"] == 1 and body["your_seat"] == match.to_move[0]
    assert r["Vary"] and "Accept" in r["Vary"] and r["Content-Language"]


def test_token_refusals_keep_their_answers(make_user):
    alice = make_user("alice")
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    r = bad.post("/api/matches/1/actions/", {"action": {}, "version": 0}, format="json")
    # 403, not 401: the first authenticator (the session's) names no WWW-Authenticate scheme.
    assert r.status_code == 403 and r.json() == {"error": "authentication_failed", "detail": "Invalid token."}
    alice.is_active = False  # (deactivating removes the tokens; one made afterwards is refused)
    alice.save(update_fields=["is_active"])
    c = _token_client(alice)
    r = c.post("/api/matches/1/actions/", {"action": {}, "version": 0}, format="json")
    assert r.status_code == 403 and r.json()["detail"] == "User inactive or deleted."


def test_token_and_user_come_in_one_statement(make_user):
    from api.authentication import TokenAuthentication

    alice = make_user("alice")
    key = Token.objects.create(user=alice).key
    with CaptureQueriesContext(connection) as q:
        user, token = TokenAuthentication().authenticate_credentials(key)
        assert user.username == "alice" and token.key == key and token.user is user
    assert len(q.captured_queries) == 1


def test_seats_and_their_users_come_in_one_statement(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = _match_with_a_bot(alice, bob)
    with transaction.atomic(), CaptureQueriesContext(connection) as q:
        found, seats = plainsql.fetch_locked_with(Match, match.pk, Seat, "match", "user")
        names = sorted((s.seat, s.user.username if s.user_id else None) for s in seats)
    assert len(q.captured_queries) == 1 and found.pk == match.pk
    assert names == sorted((s.seat, s.user.username if s.user_id else None) for s in match.seats.all())
    assert plainsql.fetch_locked_with(Match, 10**9, Seat, "match", "user") == (None, [])


@pytest.mark.parametrize("body, status", [
    ({"version": 0}, 400), ({"action": None, "version": 0}, 400), ({"action": {"type": "x"}}, 400),
    ([1, 2], 400), ({"action": {"type": "nonsense"}, "version": 0}, 400)])
def test_malformed_action_bodies_keep_their_answers(make_user, body, status):
    alice, bob = make_user("alice"), make_user("bob")
    match = _match_with_a_bot(alice, bob)
    c = APIClient()
    c.force_authenticate(match.seats.get(seat=match.to_move[0]).user)
    r = c.post(f"/api/matches/{match.pk}/actions/", json.dumps(body), content_type="application/json")
    assert r.status_code == status and "error" in r.json() and "detail" in r.json()
    if not isinstance(body, dict) or body.get("action") is None or body.get("version") is None:
        assert r.json()["error"] == "invalid" and r.json()["fields"]  # the serializer's answer


def test_the_site_policy_is_the_same_text_per_host_and_follows_the_setting(client):
    from web import csp

    for host in ("testserver", "localhost"):
        r = client.get("/api/games/", HTTP_HOST=host)
        config = {**settings.SECURE_CSP, "connect-src": [*settings.SECURE_CSP["connect-src"], f"ws://{host}",
                                                         f"wss://{host}"]}
        assert r["Content-Security-Policy"] == build_policy(config)
        assert client.get("/", HTTP_HOST=host)["Content-Security-Policy"] == build_policy(config)
    assert r["X-Frame-Options"] == "DENY"
    # A changed setting is built anew, not taken from what was kept.
    changed = {**settings.SECURE_CSP, "img-src": [csp.CSP.SELF]}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(settings, "SECURE_CSP", changed)
        assert "img-src 'self';" in client.get("/api/games/")["Content-Security-Policy"] + ";"


@pytest.mark.realservices  # the Redis counter: runs in the real-services pass (REDIS_URL set)
def test_the_redis_counter_counts_with_a_lifetime_in_one_command():
    from web import ratelimit

    key = "rl:test-count:u1:1"
    cache.delete(key)
    assert [ratelimit.take(key, 60) for _ in range(3)] == [1, 2, 3]
    assert cache.get(key) == 3  # the plain integer add + incr stored
    client = cache._cache.get_client(write=True)
    assert 0 < client.ttl(cache.make_key(key)) <= 70
    ratelimit._give_back(key)
    assert cache.get(key) == 2
    cache.delete(key)
