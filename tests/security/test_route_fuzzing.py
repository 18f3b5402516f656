"""Fuzzing over EVERY route of the URLconf (tests/security/routes.py): path parameters, query
strings, form fields and JSON bodies drawn by hypothesis from strategies meant to break parsers
and databases — NUL characters, Unicode digits ('²' passes isdigit() and fails int()), huge
numbers, deep nesting, wrong types, headers with NUL. Runs in both suite passes (SQLite and
PostgreSQL). Every answer must be below 500, and under /api/ every error has the JSON shape
{"error", "detail"}. A new endpoint is fuzzed without editing this file.

Field names come from the code itself: every ``name="..."`` in a template and every key read
with ``.get("...")`` in a view, so forms are filled with the fields they really read.
"""
from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from django.apps import apps
from django.test import Client
from hypothesis import HealthCheck, given, settings, strategies as st

from lobby import services as lobby
from matches.services import start_match
from tests.platform.helpers import start_minigame
from tests.security.routes import all_routes

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
# Per route (random part); the fixed sweep below adds 33 requests per route.
EXAMPLES = 8
# Before the random examples, every route gets each of these in every field it reads at once
# (query, form and JSON): deterministic, so a regression cannot hide behind chance.
# A lone surrogate (valid JSON as "\ud800", invalid UTF-8 in a form) and a 3,000-deep JSON
# text in a field too; each goes as a query, a form, a multipart body and JSON.
SURROGATE, DEEP_TEXT = "\ud800", "[" * 3000 + "]" * 3000
KILLERS = ["²", "\x00", "9" * 25, "-1", "deck:²", SURROGATE, DEEP_TEXT]
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


NAME_PATTERNS = (r'name="([\w.-]{1,40})"', r'\.get\("([\w.-]{1,40})"', r'\["([a-z_]{1,40})"\]',
                 r'^\s+([a-z_]{1,40}) = (?:serializers|forms)\.')


def _harvest(paths) -> set[str]:
    names: set[str] = set()
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="ignore")
        for pattern in NAME_PATTERNS:
            names.update(re.findall(pattern, text, re.MULTILINE))
    return {n for n in names if not n.isupper()}


@lru_cache(maxsize=1)
def field_names() -> list[str]:
    paths = [p for folder in ("platform", "frontend", "accounts", "games")
             for glob in ("**/templates/**/*.html", "**/*.py") for p in (ROOT / folder).glob(glob)]
    return sorted(_harvest(paths) | {"version", "action", "type", "deck", "source", "players", "seat", "at"})


@lru_cache(maxsize=None)
def _names_in(folder: Path) -> tuple[str, ...]:
    return tuple(sorted(_harvest([*folder.glob("*.py"), *folder.glob("templates/**/*.html")])))


def route_names(route) -> list[str]:
    """The names the route's own app reads: its views, forms, serializers and templates."""
    view = getattr(route.callback, "view_class", None) or getattr(route.callback, "cls", None) or route.callback
    module = sys.modules.get(getattr(view, "__module__", ""), None)
    if module is None or not getattr(module, "__file__", None):
        return []
    return list(_names_in(Path(module.__file__).parent))


@lru_cache(maxsize=1)
def verbs() -> list[str]:
    """Words a <str:verb> route may accept: the string literals of the views."""
    words: set[str] = set()
    for path in list((ROOT / "platform").glob("*/views.py")) + list((ROOT / "frontend").glob("*.py")):
        words.update(re.findall(r'"([a-z][a-z_-]{2,15})"', path.read_text(encoding="utf-8")))
    return sorted(words)


HUGE = ["9" * 19, "9" * 25, "-" + "9" * 25, "1" * 4400, str(2 ** 63), str(2 ** 64)]  # int() stops at 4300 digits
NASTY = ["", " ", "\x00", "a\x00b", "%00", "²", "٣", "１", "-1", "0", "1", "2", "1.5", "1e309", "NaN", "inf",
         "true", "null", "[]", "{}", "deck:²", "deck:1", "deck:" + "9" * 30, "starter:²", "public", "'\"",
         "<b>x</b>", "../../etc", "\r\nX-Injected: 1", "ü" * 300, "x" * 1200, SURROGATE, "a\udfffb",
         '{"a": "\\ud800"}', DEEP_TEXT, *HUGE]


def deep(n: int):
    value: object = 1
    for _ in range(n):
        value = [value]
    return value


DEEP = [deep(40), deep(3000), {"a": deep(2000)}]
text_values = st.sampled_from(NASTY) | st.text(max_size=24)
json_scalars = (st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=False)
                | text_values)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.sampled_from(field_names()) | st.text(max_size=6), inner, max_size=3),
                           max_leaves=8) | st.sampled_from(DEEP)


def fields(route, values):
    """Some of the route's own names and a few of anyone's, each with a fuzzed value."""
    own = route_names(route)
    return st.fixed_dictionaries({}, optional={n: values for n in own}) | \
        st.dictionaries(st.sampled_from(field_names()), values, max_size=4)


def form_bodies(route):
    return fields(route, text_values | st.lists(text_values, max_size=2))


def json_bodies(route):
    return fields(route, json_values) | json_values


@pytest.fixture
def world(make_user, django_user_model):
    users = {"seated": make_user("sam"), "partner": make_user("pat"), "other": make_user("olga"),
             "admin": django_user_model.objects.create_superuser("root", "root@example.org", "pw-Secret-123")}
    private = start_minigame(users["seated"], users["partner"], private=True, invitees=["pat"])
    orden = start_match(game="orden", entrants=[{"user": users["seated"], "bot": "", "choices": {}},
                                                {"user": users["partner"], "bot": "", "choices": {}}],
                        options={}, seed=7)
    invitation = lobby.create_invitation(users["seated"], game="kartenduell", players=3)
    ids = {"matches": [private.pk, orden.pk], "invitations": [invitation.pk], "tournaments": [], "decks": [],
           "notifications": []}
    if apps.is_installed("tournaments"):
        from tournaments.models import Entrant, Tournament

        t = Tournament.objects.create(name="Fuzz cup", game="kartenduell", organizer=users["seated"], seed=1)
        Entrant.objects.create(tournament=t, user=users["partner"])
        ids["tournaments"].append(t.pk)
    if apps.is_installed("games.orden.web"):
        from games.orden.web import services as decks

        ids["decks"].append(decks.copy_starter(users["seated"], "schwert").pk)
    if apps.is_installed("notifications"):
        from notifications.services import notify

        n = notify(users["seated"], "your_turn", {"match_id": private.pk}, key="fuzz", match_id=private.pk)
        if n is not None:
            ids["notifications"].append(n.pk)
    return {"users": users, "ids": ids}


def ints_for(route, world):
    head = route.pattern.removeprefix("api/").split("/")[0]
    known = {"matches": "matches", "invitations": "invitations", "tournaments": "tournaments",
             "notifications": "notifications", "orden": "decks"}.get(head)
    pool = world["ids"].get(known, []) if known else []
    huge = st.sampled_from([0, 10 ** 20, 2 ** 63, 2 ** 64 + 1])
    return (st.sampled_from(pool) | st.integers(0, 10 ** 6) | huge) if pool else (st.integers(0, 10 ** 6) | huge)


def strs_for(name: str, world):
    users = [u.username for u in world["users"].values()]
    if name == "username":
        return st.sampled_from(users) | text_values
    if name == "verb":
        return st.sampled_from(verbs()) | text_values
    return text_values


def path_values(route, world):
    values = {}
    for conv, name in route.params:
        if conv == "int":
            values[name] = ints_for(route, world)
        elif conv == "slug":
            values[name] = st.sampled_from(["kartenduell", "orden", "alchemist", "x", "-", "9" * 30])
        else:
            values[name] = strs_for(name, world).filter(lambda s: "/" not in s and s.strip() != "")
    return st.fixed_dictionaries(values)


def quote(value: str) -> str:
    from urllib.parse import quote as q

    return q(value, safe="", errors="surrogatepass")  # a lone surrogate as the bytes a client would send


def urlencoded(payload: dict) -> str:
    from urllib.parse import urlencode

    return urlencode(payload, doseq=True, errors="surrogatepass")


def multipart(payload: dict) -> tuple[bytes, str]:
    """A multipart/form-data body built by hand: the test client's encoder refuses lone surrogates."""
    boundary = "fuzzboundary7MA4YWxkTrZu0gW"
    parts = []
    for name, value in payload.items():
        for one in value if isinstance(value, list) else [value]:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                         .encode() + str(one).encode("utf-8", "surrogatepass") + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def check(route, method, url, response):
    where = f"{method} {url}: {response.status_code}"
    if route.name == "health" and response.status_code == 503:  # its answer while a check fails (no worker here)
        assert json.loads(response.content)["failing"], where
        return
    assert response.status_code < 500, where
    if route.is_api and response.status_code >= 400 and route.name not in ("api-docs", "api-swagger"):
        body = json.loads(response.content)
        assert isinstance(body, dict) and {"error", "detail"} <= set(body), f"{where} {response.content[:200]!r}"


ROUTES = all_routes()


@pytest.mark.parametrize("route", ROUTES, ids=[r.pattern or "/" for r in ROUTES])
def test_route_never_fails(route, world):
    users = world["users"]
    who = users["admin"] if route.is_admin else users["seated"]
    signed_in, anonymous = Client(), Client()

    @FUZZ
    @given(params=path_values(route, world),
           method=st.sampled_from(["GET", "POST", "PUT", "PATCH", "DELETE"] if route.is_api else ["GET", "POST"]),
           query=fields(route, text_values),
           body=st.one_of(form_bodies(route).map(lambda b: ("form", b)), json_bodies(route).map(lambda b: ("json", b)),
                          form_bodies(route).map(lambda b: ("multipart", b)),
                          st.sampled_from([b"\x00", b"{", b"[" * 100000, b"\xff\xfe", b"%00=1"]).map(lambda b: ("raw", b))),
           anonymous_user=st.booleans(),
           header=st.sampled_from([{}, {"HTTP_AUTHORIZATION": "Token \x00"}, {"HTTP_AUTHORIZATION": "Token ²"},
                                   {"HTTP_ACCEPT_LANGUAGE": "de\x00"}, {"HTTP_X_FORWARDED_FOR": "\x00"}]))
    def one(params, method, query, body, anonymous_user, header):
        send(anonymous if anonymous_user else signed_in, not anonymous_user, params, method, query, body, header)

    def send(client, sign_in, params, method, query, body, header):
        if sign_in:
            client.force_login(who)  # a fuzzed POST may have logged out or changed the password
        path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: quote(str(params[m.group(1)])), route.pattern)
        url = path + ("?" + "&".join(f"{quote(k)}={quote(v)}" for k, v in query.items()) if query else "")
        kind, payload = body
        if method == "GET":
            r = client.get(url, **header)
        elif kind == "form":
            r = client.generic(method, url, urlencoded(payload), content_type="application/x-www-form-urlencoded",
                               **header)
        elif kind == "multipart":
            data, ctype = multipart(payload)
            r = client.generic(method, url, data, content_type=ctype, **header)
        elif kind == "json":
            try:
                data = json.dumps(payload)
            except (ValueError, RecursionError):
                data = "[" * 5000 + "]" * 5000
            r = client.generic(method, url, data, content_type="application/json", **header)
        else:
            r = client.generic(method, url, payload, content_type=("application/json" if payload[:1] in b"{["
                                                                    else "application/x-www-form-urlencoded"), **header)
        check(route, method, url, r)

    names = route_names(route) or ["version"]
    base = {name: world_value(route, world, conv, name) for conv, name in route.params}
    for killer in KILLERS:
        every = {name: killer for name in names}
        send(signed_in, True, base, "GET", every, ("form", {}), {})
        send(signed_in, True, base, "POST", {}, ("form", every), {})
        send(signed_in, True, base, "POST", {}, ("multipart", every), {})
        send(signed_in, True, base, "POST", {}, ("json", every), {})
    for odd in (DEEP[1], [], 1.5, None, {"x": 1}):
        send(signed_in, True, base, "POST", {}, ("json", {name: odd for name in names}), {})
    one()


def world_value(route, world, conv: str, name: str):
    """A real object for the route's parameter (so the sweep reaches the view's body)."""
    if conv != "int":
        return {"username": "sam", "game": "orden"}.get(name, "x")
    head = route.pattern.removeprefix("api/").split("/")[0]
    known = {"matches": "matches", "invitations": "invitations", "tournaments": "tournaments",
             "notifications": "notifications", "orden": "decks"}.get(head)
    pool = world["ids"].get(known) if known else None
    return pool[-1] if pool else 1
