"""Malformed input is a 4xx, never a 500, and the API answers every error in
one shape {"error", "detail"} (404, 405, 413, 500 included). The inputs the probe found are
pinned here one by one (the route fuzzer, test_route_fuzzing.py, looks for new ones); both
suite passes run them, so the NUL cases meet PostgreSQL."""
import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client

from matches.services import start_match

pytestmark = pytest.mark.django_db
DEEP = "[" * 5000 + "]" * 5000


@pytest.fixture
def orden(make_user):
    a, b = make_user("ann"), make_user("ben")
    match = start_match(game="orden", entrants=[{"user": a, "bot": "", "choices": {}},
                                                {"user": b, "bot": "", "choices": {}}], options={}, seed=3)
    client = Client()
    client.force_login(a)
    return client, match


NUL_URLS = ["/api/matches/?status=%00", "/api/invitations/?host=%00", "/api/users/%00/", "/api/tournaments/?status=%00",
            "/users/%00/", "/users/%00/invite/", "/players/%00/record/", "/tournaments/?status=%00"]


@pytest.mark.parametrize("url", NUL_URLS)
def test_nul_in_path_or_query_is_a_400(orden, url):
    client, _ = orden
    r = client.get(url)
    assert r.status_code == 400
    if url.startswith("/api/"):
        assert set(r.json()) == {"error", "detail"}


def test_nul_in_a_header_or_cookie_is_a_400(orden):
    client, _ = orden
    assert client.get("/api/games/", HTTP_AUTHORIZATION="Token \x00").status_code == 400
    # http.cookies unquotes "\000" to NUL: the session key a NUL-refusing database would be given.
    r = Client().get("/lobby/", HTTP_COOKIE='sessionid="\\000\\000\\000\\000\\000\\000\\000\\000"')
    assert r.status_code == 400


def test_nul_in_a_multipart_field_is_a_400(orden):
    # The route fuzzer on PostgreSQL: a note sent as multipart/form-data reached the database
    # with its NUL (PostgreSQL refuses NUL in text: a 500). Nothing is stored.
    client, match = orden
    r = client.post(f"/matches/{match.id}/notes/", {"text": "a\x00b"})  # the test client sends multipart
    assert r.status_code == 400
    assert client.get(f"/api/matches/{match.id}/notes/").json().get("text", "") == ""
    r = client.post(f"/matches/{match.id}/notes/", "text=a", content_type="multipart/form-data")  # no boundary
    assert r.status_code == 400


def test_unicode_digits_are_no_numbers(orden):
    client, match = orden
    for url in (f"/matches/{match.pk}/live/?version=²", f"/matches/{match.pk}/replay/?at=²",
                f"/matches/{match.pk}/replay/?seat=²", "/api/invitations/?players=²", f"/matches/{match.pk}/live/?version=٣"):
        assert client.get(url).status_code == 200, url
    for body in ({"game": "orden", "players": 2, "choices": {"deck": "deck:²"}},
                 {"game": "orden", "players": 2, "choices": {"deck": "deck:" + "9" * 30}}):
        r = client.post("/api/invitations/", body, content_type="application/json")
        assert r.status_code == 400 and set(r.json()) == {"error", "detail"}, r.content
    assert client.post("/orden/decks/copy/", {"source": "²"}).status_code == 404


def test_deep_json_is_a_400_everywhere(orden):
    client, match = orden
    for url in ("/api/invitations/", f"/api/matches/{match.pk}/actions/", "/api/auth/token/",
                "/api/notifications/push-subscriptions/", "/api/tournaments/"):
        r = client.post(url, DEEP, content_type="application/json")
        assert r.status_code == 400 and r.json()["error"] == "bad_request", url
    # Der Orden's move form carries the action as JSON in a form field.
    r = client.post(f"/matches/{match.pk}/act/", {"action": DEEP, "version": "0"})
    assert r.status_code == 302
    # with htmx the refusal is the live part, swapped in place with its 400 (the game table)
    r = client.post(f"/matches/{match.pk}/act/", {"action": DEEP, "version": "0"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 400 and b'id="live"' in r.content


@pytest.mark.urls("tests.security.boom_urls")
def test_api_errors_have_one_shape(orden):
    client, _ = orden
    quiet = Client(raise_request_exception=False)
    cases = [
        (client.get("/api/nothing/here/"), 404),
        (client.get("/api/matches/999999999/"), 404),
        (client.delete("/api/games/"), 405),
        (client.post("/api/invitations/", "x" * 3_000_000, content_type="application/json"), 413),
        (quiet.get("/api/boom/"), 500),
        (client.get("/api/matches/99999999999999999999999/"), 404),
    ]
    for response, status in cases:
        assert response.status_code == status
        body = json.loads(response.content)
        assert set(body) >= {"error", "detail"} and isinstance(body["detail"], str), (status, body)
    # Pages keep their HTML error pages.
    assert "html" in quiet.get("/boom/")["Content-Type"]
    assert "html" in client.get("/nothing/here/")["Content-Type"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/matches/8", "/ws/nothing/", "/ws/", "/ws/matches/abc/",
                                  "/ws/matches/99999999999999999999999/"])
def test_unrouted_websockets_are_refused(path):
    from config.asgi import application

    async def connect():
        communicator = WebsocketCommunicator(application, path, headers=[(b"host", b"localhost"),
                                                                         (b"origin", b"http://localhost")])
        connected, code = await communicator.connect(timeout=5)
        await communicator.disconnect()
        return connected

    assert async_to_sync(connect)() is False


# --- lone surrogates and deep JSON in form fields ---------------------------
LONE = '{"username": "\\ud800", "password": "x"}'  # valid JSON; the string cannot be UTF-8 encoded


@pytest.mark.parametrize("url", ["/api/auth/token/", "/accounts/login/"])
def test_a_lone_surrogate_in_a_json_login_is_a_4xx(url):
    r = Client(REMOTE_ADDR="10.26.1.1").post(url, LONE, content_type="application/json")
    assert r.status_code < 500, r.content


def test_rate_limit_keys_take_any_text():
    """Behind the guard, the limiter still builds keys the cache (Redis: UTF-8) can store."""
    from django.core.cache import cache

    from web.ratelimit import _key

    key = _key("login-user", "\ud800x\udfff", 1)
    assert cache.add(key, 0, timeout=5) and cache.incr(key) == 1
    cache.delete(key)


def test_a_lone_surrogate_in_an_invalid_choice_is_a_400(orden):
    client, _ = orden
    for body in ('{"game": "\\ud800", "players": 2}', '{"game": "orden", "players": 2, "choices": {"deck": "\\ud800"}}',
                 '{"game": "orden", "players": "\\udfff"}', '{"game": "orden", "players": 2, "clock_mode": "\\ud800"}'):
        r = client.post("/api/invitations/", body, content_type="application/json")
        assert r.status_code == 400 and set(r.json()) >= {"error", "detail"}, r.content
        r.content.decode("utf-8")  # the answer itself is valid UTF-8


def test_deep_json_in_a_form_field_is_a_400(orden):
    from tournaments.models import Tournament

    client, match = orden
    deep = "[" * 3000 + "]" * 3000
    t = Tournament.objects.create(name="Cup", game="orden", organizer=match.seats.first().user, seed=1)
    for url in (f"/api/matches/{match.pk}/actions/", f"/api/tournaments/{t.pk}/register/"):
        for data in ({"action": deep, "version": "0", "deck": deep},):
            r = client.post(url, data)  # multipart
            assert r.status_code == 400 and set(r.json()) >= {"error", "detail"}, (url, r.content)
            from urllib.parse import urlencode

            r = client.post(url, urlencode(data), content_type="application/x-www-form-urlencoded")
            assert r.status_code == 400 and set(r.json()) >= {"error", "detail"}, (url, r.content)


def test_deep_json_in_an_admin_json_field_is_a_form_error(orden, django_user_model):
    """The admin's forms for model JSONFields (Django's forms.JSONField): a 3,000-deep JSON text
    was a RecursionError (500; the route fuzzer's deep JSON text found it). Now the field's
    "Enter a valid JSON." and nothing stored; a shallow state still parses."""
    from matches.models import Match

    _client, match = orden
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw-Secret-123")
    client = Client()
    client.force_login(admin)
    before = Match.objects.count()
    deep = "[" * 3000 + "]" * 3000
    r = client.post("/admin/matches/match/add/", {"game": "orden", "state": deep, "options": deep, "to_move": "[]",
                                                   "choices": "[]", "seed": "1", "players": "2"})
    assert r.status_code == 200 and b"Enter a valid JSON" in r.content
    assert Match.objects.count() == before
    from django import forms

    assert forms.JSONField().clean('{"a": [[1, 2], {"b": [3]}]}') == {"a": [[1, 2], {"b": [3]}]}
