"""The API's list endpoints: built from plain values, they must show each row exactly
as the single-object endpoints do, keep private invitations to their people, and read a
constant number of SQL statements whatever the number of rows."""
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from lobby import services as lobby
from matches import services as match_services
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def _unordered_invitees(row: dict) -> dict:
    # The invitees' order is unspecified (the detail's prefetch leaves it to the database).
    return {**row, "invitees": sorted(row["invitees"])}


@pytest.fixture
def people(make_user):
    return {name: make_user(name) for name in ("host", "anna", "bert", "carl")}


def _variety(people):
    """Public and private invitations, one with a bot seat and a joined player, one started."""
    host, anna, bert = people["host"], people["anna"], people["bert"]
    lobby.create_invitation(host, game="kartenduell", players=3, comment="plain \u2028 ü")
    lobby.create_invitation(host, game="kartenduell", players=4, private=True, invitees=["anna", "bert"],
                            options={"short": True})
    with_bot = lobby.create_invitation(host, game="kartenduell", players=4, bots=["random-legal"],
                                       invitees=["anna", "carl"])
    lobby.join(with_bot.pk, bert)
    start_minigame(host, anna)  # a started invitation


def test_invitation_rows_equal_the_detail(people):
    _variety(people)
    profile = people["anna"].profile
    profile.timezone = "America/St_Johns"  # a half-hour offset: created_at in the reader's zone
    profile.save()
    for viewer in (people["anna"], people["carl"], None):
        client = _client(viewer)
        for url in ("/api/invitations/", "/api/invitations/?status=started", "/api/invitations/?invited=1"):
            if viewer is None and "invited" in url:
                assert client.get(url).status_code == 401
                continue
            rows = client.get(url).json()
            assert rows, url
            for row in rows:
                detail = client.get(f"/api/invitations/{row['id']}/").json()
                assert list(row) == list(detail)  # the same keys in the same order
                assert _unordered_invitees(row) == _unordered_invitees(detail), url
    anna_rows = _client(people["anna"]).get("/api/invitations/").json()
    assert anna_rows[0]["created_at"].endswith("-03:30")
    berlin = _client(people["carl"]).get("/api/invitations/").json()[0]["created_at"]
    assert berlin.endswith(("+01:00", "+02:00"))  # the profile's default zone
    assert _client().get("/api/invitations/").json()[0]["created_at"].endswith("Z")  # anonymous: UTC


def test_private_invitations_only_for_their_people(people):
    _variety(people)
    private = lambda client, url="/api/invitations/": [r for r in client.get(url).json() if r["private"]]  # noqa: E731
    assert [sorted(r["invitees"]) for r in private(_client(people["anna"]))] == [["anna", "bert"]]
    assert [sorted(r["invitees"]) for r in private(_client(people["host"]))] == [["anna", "bert"]]
    assert private(_client(people["carl"])) == []
    assert private(_client()) == []
    assert private(_client(people["carl"]), "/api/invitations/?status=open&game=kartenduell") == []
    public = [r for r in _client(people["carl"]).get("/api/invitations/").json() if not r["private"]]
    assert all(r["invitees"] == [] for r in public)  # names only on private ones
    with_bot = next(r for r in public if r["players"] == 4)
    assert [(s["user"] or {}).get("username") for s in with_bot["seats"]] == ["host", None, "bert"]
    assert with_bot["seats"][1] == {"user": None, "bot": "random-legal"}
    invited = _client(people["bert"]).get("/api/invitations/?invited=1").json()
    assert [r["private"] for r in invited] == [True]  # bert joined the public one


def test_invitation_list_queries_do_not_grow(people, make_user):
    client = _client(people["anna"])
    _variety(people)
    urls = ["/api/invitations/", "/api/invitations/?invited=1", "/api/invitations/?status=started"]
    few = [_queries(client, url) for url in urls]
    hosts = [make_user(f"h{i}") for i in range(8)]
    for i, h in enumerate(hosts):
        inv = lobby.create_invitation(h, game="kartenduell", players=4, private=i % 2 == 0,
                                      invitees=["anna", "carl"], bots=["random-legal"] if i % 3 == 0 else [])
        lobby.join(inv.pk, people["bert"] if i % 2 else people["anna"])
        start_minigame(h, people["carl"])
    many = [_queries(client, url) for url in urls]
    assert few == many, f"{few} statements with few invitations, {many} with many"


def test_match_rows_equal_the_detail(people):
    anna, bert, carl = people["anna"], people["bert"], people["carl"]
    start_minigame(anna, bert)
    start_minigame(anna, carl, bots=["random-legal"], players=3)
    finished = start_minigame(carl, anna)
    match_services.resign(finished.pk, anna)
    client = _client(anna)
    for url in ("/api/matches/?mine=1", "/api/matches/", "/api/matches/?mine=1&status=finished",
                "/api/matches/?to_move=1"):
        for row in client.get(url).json():
            detail = client.get(f"/api/matches/{row['id']}/").json()
            for key in ("id", "game", "status", "version", "to_move", "outcome"):
                assert row[key] == detail[key], (url, key)
            assert [{"seat": s["seat"], "user": s["user"]} for s in row["seats"]] == \
                [{"seat": s["seat"], "user": s["user"]} for s in detail["seats"]]
            mine = "mine=1" in url or "to_move=1" in url  # the user's own rows carry their deadline
            assert list(row) == ["id", "game", "game_name", "status", "version", "to_move", "my_turn", "seats",
                                 "outcome", "updated_at"] + (["deadline"] if mine else [])
            assert row["updated_at"].endswith("Z")
    assert [r["id"] for r in client.get("/api/matches/?mine=1&status=finished").json()] == [finished.pk]
    rows = client.get("/api/matches/?mine=1").json()
    assert any(s["bot"] == "random-legal" and s["user"] is None for r in rows for s in r["seats"])


def test_match_list_queries_do_not_grow(people):
    anna, bert = people["anna"], people["bert"]
    client = _client(anna)
    start_minigame(anna, bert)
    urls = ["/api/matches/?mine=1", "/api/matches/?status=active", "/api/matches/"]  # each has rows (an empty
    # list skips the seats' query; ?to_move=1 may be empty: the start player is drawn by lot)
    few = [_queries(client, url) for url in urls]
    for i in range(6):
        start_minigame(anna, bert, people["carl"]) if i % 2 else start_minigame(bert, anna, bots=["random-legal"],
                                                                               players=3)
    many = [_queries(client, url) for url in urls]
    assert few == many, f"{few} statements with 1 match, {many} with 7"
