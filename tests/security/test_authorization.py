"""Authorization matrix: every endpoint of the URLconf × anonymous / other user / seated
player / tournament organizer / judge / admin, with GET and with a bare POST.

Rules checked for every cell (so new endpoints are covered without editing this file):
1. never a server error;
2. an anonymous POST changes no row in any table (except on the few endpoints meant for
   anonymous visitors, ANONYMOUS_WRITES), and the API refuses it (401/403/404/405/...);
3. a private match, its live part, API, log, replays and exports, and a private invitation are
   visible to their players only: everyone else gets 404 (or is sent to log in);
4. the admin site answers only the admin;
5. tournament endpoints reserved to officials refuse other users, and do not refuse the
   organizer or a judge;
plus an explicit table for the core match and invitation endpoints.
"""
from __future__ import annotations

import pytest
from django.apps import apps
from django.test import Client

from lobby import services as lobby
from matches.models import LogEntry
from tests.platform.helpers import start_minigame
from tests.security.routes import all_routes, match_routes

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "other", "seated", "organizer", "judge", "admin")
# Endpoints that exist to be posted by visitors who are not signed in.
ANONYMOUS_WRITES = {"login", "signup", "api-token", "password_reset", "password_reset_confirm", "set_language",
                    "set-language",
                    "logout", "unsubscribe", "api-schema",
                    "learn-try"}  # "Try it now": makes a guest account by design (rate-limited per address)
OFFICIAL_ONLY = ("start", "next-round", "disqualify", "results", "sanctions", "officials", "bots")
REFUSED = {302, 400, 401, 403, 404, 405, 429}


@pytest.fixture
def world(make_user, django_user_model):
    users = {"seated": make_user("sam"), "partner": make_user("pat"), "other": make_user("olga"),
             "organizer": make_user("orla"), "judge": make_user("jud"),
             "admin": django_user_model.objects.create_superuser("root", "root@example.org", "pw-Secret-123")}
    match = start_minigame(users["seated"], users["partner"], private=True, invitees=["pat"])
    invitation = lobby.create_invitation(users["seated"], game="kartenduell", players=3, private=True,
                                         invitees=["pat"])
    tournament_id = 999_999
    if apps.is_installed("tournaments"):
        from tournaments.models import Entrant, Official, Tournament

        t = Tournament.objects.create(name="Matrix cup", game="kartenduell", organizer=users["organizer"], seed=1)
        Official.objects.create(tournament=t, user=users["judge"], role=Official.Role.JUDGE)
        Entrant.objects.create(tournament=t, user=users["seated"])
        tournament_id = t.pk
    clients = {"anonymous": Client()}
    for role in ROLES[1:]:
        clients[role] = Client()
        clients[role].force_login(users[role])
    return {"users": users, "match": match, "invitation": invitation, "tournament": tournament_id,
            "clients": clients}


def url_for(route, world) -> str | None:
    values = {}
    for conv, name in route.params:
        if conv == "int" and name == "pk":
            head = route.pattern.removeprefix("api/")
            values[name] = (world["match"].pk if head.startswith("matches/") else
                            world["invitation"].pk if head.startswith("invitations/") else
                            world["tournament"] if head.startswith("tournaments/") else 999_999)
        elif conv == "int":
            values[name] = 1
        elif name == "username":
            values[name] = world["users"]["seated"].username
        elif name == "game":
            values[name] = "kartenduell"
        elif route.is_admin:
            return None  # the admin's own model pages: covered by its index below
        else:
            values[name] = "zz"
    return route.url(**values)


def row_counts() -> tuple:
    return tuple(m.objects.count() for m in apps.get_models() if m._meta.managed and not m._meta.proxy
                 and m._meta.label != "sessions.Session")


def test_matrix(world):
    match = world["match"]
    private_match_urls = {url_for(r, world) for r in match_routes()}
    private_invitation_urls = {f"/invitations/{world['invitation'].pk}/", f"/api/invitations/{world['invitation'].pk}/"}
    cells, problems = 0, []
    for route in all_routes():
        url = url_for(route, world)
        if url is None:
            continue
        for role in ROLES:
            client = world["clients"][role]
            for method in ("get", "post"):
                if role != "anonymous":  # a POST may have logged the client out (logout, password)
                    client.force_login(world["users"][role])
                before = row_counts() if role == "anonymous" and method == "post" else None
                r = getattr(client, method)(url)
                cells += 1
                where = f"{method.upper()} {url} as {role}: {r.status_code}"
                if r.status_code >= 500 and not (route.name == "health" and r.status_code == 503):
                    problems.append(f"{where} (server error)")  # (/health/ answers 503 while a check fails)
                if before is not None and route.name not in ANONYMOUS_WRITES:
                    if row_counts() != before:
                        problems.append(f"{where} (an anonymous POST changed the database)")
                    if route.is_api and r.status_code not in REFUSED:
                        problems.append(f"{where} (anonymous API write accepted)")
                if method == "get" and url in private_match_urls | private_invitation_urls:
                    allowed = role == "seated" or (role == "admin" and r.status_code == 200)
                    if role == "seated" and r.status_code >= 400 and not url.endswith(("/act/", "/undo/",
                                                                                       "/resign/", "/chat/", "/actions/",
                                                                                       "/rematch/", "/queue/", "/cancel/",
                                                                                       "/set/", "/chat/read/", "/notify/")) \
                            and not (url.endswith("/notes/") and not route.is_api):  # (POST only)
                        problems.append(f"{where} (a player cannot see their own match)")
                    if not allowed and r.status_code not in (302, 403, 404, 405):
                        problems.append(f"{where} (private content shown)")
                if route.is_admin and method == "get" and role != "admin" and r.status_code == 200 \
                        and route.name not in ("login", "logout"):
                    problems.append(f"{where} (admin page shown)")
                if route.pattern.startswith("api/tournaments/<int:pk>/") and method == "post" \
                        and route.pattern.rstrip("/").split("/")[-1] in OFFICIAL_ONLY:
                    if role in ("other", "seated") and r.status_code not in (400, 403, 404, 405):
                        problems.append(f"{where} (officials' endpoint accepted a non-official)")
                    if role == "organizer" and r.status_code in (401, 403):
                        problems.append(f"{where} (the organizer is refused)")
    assert not problems, "\n".join(problems)
    assert cells > 300
    # Posting nothing moved nobody (the seated player's bare POST to resign/ did resign: allowed).
    assert not LogEntry.objects.filter(match=match, kind=LogEntry.Kind.ACTION).exists()


def test_admin_site(world):
    assert world["clients"]["admin"].get("/admin/").status_code == 200
    for role in ("anonymous", "other", "seated", "organizer", "judge"):
        r = world["clients"][role].get("/admin/")
        assert r.status_code == 302 and "/admin/login/" in r["Location"], role


# The core endpoints, cell by cell: (method, url template, body) -> expected status per role.
CORE = [
    ("get", "/api/matches/{m}/", None, {"anonymous": 404, "other": 404, "seated": 200, "organizer": 404,
                                       "judge": 404}),
    ("get", "/api/matches/{m}/log/", None, {"anonymous": 404, "other": 404, "seated": 200}),
    ("get", "/api/matches/{m}/legal-actions/", None, {"anonymous": 404, "other": 404, "seated": 200}),
    ("get", "/matches/{m}/", None, {"anonymous": 404, "other": 404, "seated": 200, "judge": 404}),
    ("post", "/api/matches/{m}/actions/", {"action": {"type": "draw"}, "version": 0},
     {"anonymous": 403, "other": 403, "organizer": 403, "judge": 403, "admin": 403}),
    ("post", "/api/matches/{m}/resign/", {}, {"anonymous": 403, "other": 403, "admin": 403}),
    ("post", "/api/matches/{m}/undo/", {"version": 0}, {"anonymous": 403, "other": 403}),
    ("get", "/api/matches/{m}/orders/", None, {"anonymous": 403, "other": 403, "seated": 200, "organizer": 403,
                                              "judge": 403, "admin": 403}),
    ("get", "/api/matches/?mine=1", None, {"anonymous": 401, "other": 200, "seated": 200}),
    ("get", "/api/invitations/{i}/", None, {"anonymous": 404, "other": 404, "seated": 200}),
    # a private invitation: to others as if missing
    ("post", "/api/invitations/{i}/cancel/", {}, {"anonymous": 403, "other": 404}),
    ("post", "/api/invitations/{i}/join/", {}, {"anonymous": 403, "other": 404}),
    ("get", "/lobby/", None, {role: 200 for role in ROLES}),
    ("get", "/my-games/", None, {"anonymous": 302, "other": 200, "seated": 200}),
]


@pytest.mark.parametrize("method,template,body,expected", CORE, ids=[f"{c[0]} {c[1]}" for c in CORE])
def test_core_cells(world, method, template, body, expected):
    url = template.format(m=world["match"].pk, i=world["invitation"].pk)
    for role, status in expected.items():
        client = world["clients"][role]
        if method == "get":
            r = client.get(url)
        else:
            r = client.post(url, body, content_type="application/json")
        assert r.status_code == status, f"{method.upper()} {url} as {role}: {r.status_code} {r.content[:200]!r}"
