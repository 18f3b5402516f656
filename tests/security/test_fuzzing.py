"""Fuzzing: schemathesis against /api/schema/ (no 5xx on any operation), and property-based
action JSON (hypothesis) against the API and the game page's form: every request answers
without a server error, and a refused one changes nothing (version, snapshot, log, seats)."""
from __future__ import annotations

import json

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, given, settings, strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import registry
from matches.models import LogEntry, Match, Seat
from matches.services import start_match

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
FUZZ = settings(max_examples=12, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


@pytest.fixture
def token(django_user_model):
    # As Django's test client does: a finished request must not close the test's connection.
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections, reset_queries

    request_started.disconnect(reset_queries)
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield _token(django_user_model)
    request_started.connect(reset_queries)
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _token(django_user_model):
    user, _ = django_user_model.objects.get_or_create(username="fuzzer")
    other, _ = django_user_model.objects.get_or_create(username="fuzzfoe")
    start_match(game="kartenduell", entrants=[{"user": user, "bot": "", "choices": {}},
                                              {"user": other, "bot": "", "choices": {}}], options={}, seed=5)
    return Token.objects.get_or_create(user=user)[0].key


@pytest.mark.django_db
@schema.parametrize()
@FUZZ
def test_api_schema_no_server_error(case, token):
    """No 5xx on any operation, and the OpenAPI schema says what the API returns: every answer
    with a documented status validates against that response's schema."""
    case.call_and_validate(headers={"Authorization": f"Token {token}"},
                           checks=[schemathesis.checks.not_a_server_error,
                                   schemathesis.checks.response_schema_conformance])


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**63) | st.floats(allow_nan=False)
                    | st.text(max_size=20), lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


def snapshot(match_id: int):
    m = Match.objects.get(pk=match_id)
    return (m.version, json.dumps(m.state, sort_keys=True), m.status, json.dumps(m.to_move),
            LogEntry.objects.filter(match_id=match_id).count(),
            tuple(Seat.objects.filter(match_id=match_id).order_by("seat").values_list("to_move", "resigned", "bot")))


def actions_near_legal(legal: list[dict]):
    """Legal actions with one field changed, dropped or retyped, plus arbitrary JSON."""
    def mutate(action, key, value):
        out = dict(action)
        if value is ...:
            out.pop(key, None)
        else:
            out[key] = value
        return out

    near = st.sampled_from(legal).flatmap(lambda a: st.builds(
        mutate, st.just(a), st.sampled_from(sorted(a) + ["extra"]), JSON | st.just(...)))
    return near | JSON


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", sorted(registry.plugins()))
def test_action_json_fuzzing(slug, django_user_model):
    plugin = registry.get(slug)
    n = plugin.meta.min_players
    users = [django_user_model.objects.create_user(f"fz{slug[:6]}{i}", password="x") for i in range(n)]
    match = start_match(game=slug, entrants=[{"user": u, "bot": "", "choices": {}} for u in users],
                        options={}, seed=99)
    seat_user = {s.seat: s.user for s in match.seats.all()}
    mover = seat_user[match.to_move[0]]
    idle = next(u for s, u in seat_user.items() if s != match.to_move[0])
    legal = plugin.engine.legal_actions(match.state, match.to_move[0])
    api = APIClient()

    @FUZZ
    @given(action=actions_near_legal(legal), version=st.sampled_from([0, 1, -1, None, "0", 0.0, True, [0]]),
           who=st.sampled_from(["mover", "idle"]))
    def one(action, version, who):
        user = mover if who == "mover" else idle
        api.force_authenticate(user)
        before = snapshot(match.pk)
        r = api.post(f"/api/matches/{match.pk}/actions/", {"action": action, "version": version}, format="json")
        assert r.status_code < 500, r.content
        if r.status_code != 200:
            assert snapshot(match.pk) == before, f"refused ({r.status_code}) but changed: {action!r}"
            assert set(r.json()) >= {"error", "detail"}
        else:  # accepted: only the mover's legal move on the current version
            assert who == "mover" and version == 0 and type(version) is int, (action, version)

    one()


@pytest.mark.django_db(transaction=True)
def test_game_page_form_fuzzing(django_user_model):
    users = [django_user_model.objects.create_user(f"ff{i}", password="x") for i in range(2)]
    match = start_match(game="alchemist", entrants=[{"user": u, "bot": "", "choices": {}} for u in users],
                        options={}, seed=5)
    mover = next(s.user for s in match.seats.all() if s.seat == match.to_move[0])
    from django.test import Client

    client = Client()
    client.force_login(mover)

    @FUZZ
    @given(fields=st.dictionaries(st.sampled_from(["type", "version", "cauldron", "tribute", "card", "school",
                                                   "ingredient", "x"]), st.text(max_size=12), max_size=6))
    def one(fields):
        before = snapshot(match.pk)
        r = client.post(f"/matches/{match.pk}/act/", fields)
        assert r.status_code < 500
        if fields.get("version") != "0":
            assert snapshot(match.pk) == before

    one()

