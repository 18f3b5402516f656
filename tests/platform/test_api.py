"""The HTTP API contract of spec/platform.md, exercised as a client would."""
import pytest
from rest_framework.test import APIClient

from games import registry

pytestmark = pytest.mark.django_db


@pytest.fixture
def clients(make_user):
    def client_for(name):
        user = make_user(name)
        c = APIClient()
        c.force_authenticate(user)
        return user, c
    return client_for


def test_games_lists_every_registered_game():
    data = APIClient().get("/api/games/").json()
    game = next(g for g in data if g["slug"] == "kartenduell")
    assert game["min_players"] == 2 and game["max_players"] == 4
    assert game["options"][0]["key"] == "short" and game["options"][0]["type"] == "bool"
    assert game["name"] == {"en": "Card duel", "de": "Kartenduell"}


def test_full_flow_invitation_to_finished_match(clients):
    (alice, ca), (bob, cb) = clients("alice"), clients("bob")
    r = ca.post("/api/invitations/", {"game": "kartenduell", "players": 2, "options": {"short": True},
                                      "move_days": 2}, format="json")
    assert r.status_code == 201, r.content
    inv = r.json()
    assert inv["seats_taken"] == 1 and inv["match"] is None and inv["options"] == {"short": True}
    listed = cb.get("/api/invitations/?game=kartenduell&status=open").json()
    assert [i["id"] for i in listed] == [inv["id"]]
    r = cb.post(f"/api/invitations/{inv['id']}/join/", {"choices": {}}, format="json")
    assert r.status_code == 200, r.content
    match_id = cb.get(f"/api/invitations/{inv['id']}/").json()["match"]
    assert match_id
    by_user = {"alice": ca, "bob": cb}
    for _ in range(100):
        m = ca.get(f"/api/matches/{match_id}/").json()
        assert set(m) >= {"id", "game", "status", "version", "seats", "to_move", "view", "outcome"}
        if m["status"] == "finished":
            break
        mover = next(s["user"]["username"] for s in m["seats"] if s["seat"] == m["to_move"][0])
        client = by_user[mover]
        legal = client.get(f"/api/matches/{match_id}/legal-actions/").json()
        other = cb if client is ca else ca
        assert other.get(f"/api/matches/{match_id}/legal-actions/").json() == []
        r = client.post(f"/api/matches/{match_id}/actions/", {"action": legal[0], "version": m["version"]},
                        format="json")
        assert r.status_code == 200, r.content
        assert r.json()["version"] == m["version"] + 1
    assert m["status"] == "finished"
    assert {p["seat"] for p in m["outcome"]["placements"]} == {0, 1}
    log = ca.get(f"/api/matches/{match_id}/log/").json()
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert set(log[0]) >= {"seq", "seat", "action", "at"}
    mine = ca.get("/api/matches/?mine=1").json()
    assert [x["id"] for x in mine] == [match_id]


def test_errors_are_json_with_clear_messages(clients):
    (alice, ca), (bob, cb) = clients("alice"), clients("bob")
    r = ca.post("/api/invitations/", {"game": "kartenduell", "players": 9}, format="json")
    assert r.status_code == 400 and "2 to 4 players" in r.json()["detail"]
    r = ca.post("/api/invitations/", {"game": "kartenduell"}, format="json")
    assert r.status_code == 400 and r.json()["error"] == "invalid" and "players" in r.json()["fields"]
    r = ca.post("/api/invitations/", "not json", content_type="application/json")
    assert r.status_code == 400 and r.json()["error"] == "parse_error"
    inv = ca.post("/api/invitations/", {"game": "kartenduell", "players": 2}, format="json").json()
    cb.post(f"/api/invitations/{inv['id']}/join/", {}, format="json")
    match_id = ca.get(f"/api/invitations/{inv['id']}/").json()["match"]
    m = ca.get(f"/api/matches/{match_id}/").json()
    mover, waiter = (ca, cb) if m["your_seat"] == m["to_move"][0] else (cb, ca)
    legal = mover.get(f"/api/matches/{match_id}/legal-actions/").json()
    r = mover.post(f"/api/matches/{match_id}/actions/", {"action": legal[0], "version": 7}, format="json")
    assert r.status_code == 409 and r.json()["error"] == "stale_version" and r.json()["version"] == 0
    r = waiter.post(f"/api/matches/{match_id}/actions/", {"action": legal[0], "version": 0}, format="json")
    assert r.status_code == 403 and r.json()["error"] == "not_your_turn"
    r = mover.post(f"/api/matches/{match_id}/actions/", {"action": {"type": "fly"}, "version": 0}, format="json")
    assert r.status_code == 400 and r.json()["error"] == "illegal_action" and "Not a legal move" in r.json()["detail"]
    r = mover.post(f"/api/matches/{match_id}/actions/", {"action": [1, 2], "version": 0}, format="json")
    assert r.status_code == 400
    r = mover.post(f"/api/matches/{match_id}/actions/", {"version": 0}, format="json")
    assert r.status_code == 400 and "action" in r.json()["fields"]
    assert APIClient().post(f"/api/matches/{match_id}/actions/", {"action": legal[0], "version": 0},
                            format="json").status_code in (401, 403)
    assert ca.get("/api/matches/999999/").status_code == 404
    assert ca.get(f"/api/matches/{match_id}/").json()["version"] == 0


def test_spectators_get_the_public_view(clients):
    (alice, ca), (bob, cb), (eve, ce) = clients("alice"), clients("bob"), clients("eve")
    inv = ca.post("/api/invitations/", {"game": "kartenduell", "players": 2}, format="json").json()
    cb.post(f"/api/invitations/{inv['id']}/join/", {}, format="json")
    match_id = ca.get(f"/api/invitations/{inv['id']}/").json()["match"]
    seen = ce.get(f"/api/matches/{match_id}/").json()
    assert seen["your_seat"] is None and seen["view"]["hand"] is None
    assert ca.get(f"/api/matches/{match_id}/").json()["view"]["hand"]
    assert APIClient().get(f"/api/matches/{match_id}/").json()["view"]["hand"] is None


def test_private_match_is_hidden_from_strangers(clients):
    (alice, ca), (bob, cb), (eve, ce) = clients("alice"), clients("bob"), clients("eve")
    inv = ca.post("/api/invitations/", {"game": "kartenduell", "players": 2, "private": True,
                                        "invitees": ["bob"]}, format="json").json()
    assert ce.get(f"/api/invitations/{inv['id']}/").status_code == 404
    assert ce.post(f"/api/invitations/{inv['id']}/join/", {}, format="json").status_code == 404  # as if missing
    cb.post(f"/api/invitations/{inv['id']}/join/", {}, format="json")
    match_id = cb.get(f"/api/invitations/{inv['id']}/").json()["match"]
    assert ce.get(f"/api/matches/{match_id}/").status_code == 404


def test_token_auth_and_schema(make_user):
    make_user("tok")
    r = APIClient().post("/api/auth/token/", {"username": "tok", "password": "pw-Secret-123"}, format="json")
    token = r.json()["token"]
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert c.post("/api/invitations/", {"game": "kartenduell", "players": 2}, format="json").status_code == 201
    schema = APIClient().get("/api/schema/")
    assert schema.status_code == 200
    text = schema.content.decode()
    for path in ("/api/games/", "/api/invitations/{id}/join/", "/api/matches/{id}/legal-actions/",
                 "/api/matches/{id}/actions/", "/api/matches/{id}/log/", "/api/matches/{id}/undo/"):
        assert path in text


def test_undo_and_resign_over_the_api(clients):
    (alice, ca), (bob, cb) = clients("alice"), clients("bob")
    inv = ca.post("/api/invitations/", {"game": "kartenduell", "players": 2}, format="json").json()
    cb.post(f"/api/invitations/{inv['id']}/join/", {}, format="json")
    match_id = ca.get(f"/api/invitations/{inv['id']}/").json()["match"]
    m = ca.get(f"/api/matches/{match_id}/").json()
    mover = ca if m["your_seat"] == m["to_move"][0] else cb
    play = next(a for a in mover.get(f"/api/matches/{match_id}/legal-actions/").json() if a["type"] == "play")
    mover.post(f"/api/matches/{match_id}/actions/", {"action": play, "version": 0}, format="json")
    r = mover.post(f"/api/matches/{match_id}/undo/", {"version": 1}, format="json")
    assert r.status_code == 200 and r.json()["version"] == 2 and r.json()["to_move"] == m["to_move"]
    r = ca.post(f"/api/matches/{match_id}/resign/")
    assert r.status_code == 200 and r.json()["status"] == "finished"
    assert ca.post(f"/api/matches/{match_id}/resign/").status_code == 409


def test_option_filters_are_typed_and_never_a_500(clients):
    (alice, ca), _ = clients("alice"), clients("bob")
    ca.post("/api/invitations/", {"game": "kartenduell", "players": 2, "options": {"short": True}}, format="json")
    assert len(ca.get("/api/invitations/?game=kartenduell&option.short=true").json()) == 1
    assert ca.get("/api/invitations/?game=kartenduell&option.short=false").json() == []
    if "orden" in registry.plugins():  # an int option from the query string matches the stored int
        ca.post("/api/invitations/", {"game": "orden", "players": 2, "options": {"rounds": 3}}, format="json")
        assert len(ca.get("/api/invitations/?game=orden&option.rounds=3").json()) == 1
    for query in ("option.short__contains=1", "option.=1", "option.short=maybe", "option.rounds=x"):
        r = ca.get(f"/api/invitations/?{query}")
        assert r.status_code == 400 and r.json()["error"] == "invitation_error", query



def test_leave_cancel_and_my_turn_list(clients):
    (alice, ca), (bob, cb), (carl, cc) = clients("alice"), clients("bob"), clients("carl")
    inv = ca.post("/api/invitations/", {"game": "kartenduell", "players": 3}, format="json").json()
    assert cb.post(f"/api/invitations/{inv['id']}/join/", {}, format="json").json()["seats_taken"] == 2
    r = cb.post(f"/api/invitations/{inv['id']}/leave/")
    assert r.status_code == 200 and r.json()["seats_taken"] == 1
    r = cb.post(f"/api/invitations/{inv['id']}/cancel/")
    assert r.status_code == 403 and r.json()["error"] == "invitation_error"
    assert ca.post(f"/api/invitations/{inv['id']}/cancel/").json()["status"] == "cancelled"
    assert cc.post(f"/api/invitations/{inv['id']}/join/", {}, format="json").status_code == 409
    assert ca.get("/api/invitations/?status=open").json() == []
    # ?mine=1&to_move=1: only the matches waiting for the requester
    inv = ca.post("/api/invitations/", {"game": "kartenduell", "players": 2}, format="json").json()
    cb.post(f"/api/invitations/{inv['id']}/join/", {}, format="json")
    m = ca.get(f"/api/matches/{ca.get(f'/api/invitations/{inv['id']}/').json()['match']}/").json()
    mover, waiter = (ca, cb) if m["your_seat"] == m["to_move"][0] else (cb, ca)
    assert [x["id"] for x in mover.get("/api/matches/?mine=1&to_move=1").json()] == [m["id"]]
    assert waiter.get("/api/matches/?mine=1&to_move=1").json() == []
    assert [x["id"] for x in waiter.get("/api/matches/?mine=1").json()] == [m["id"]]
