"""The tournament API: the contract of the spec (shapes) and the authorization matrix
(every endpoint × anonymous/other/player/organizer/judge)."""
import pytest
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Entrant, Table, Tournament
from tests.tournaments.helpers import DECK_GAME, deck_game, make_tournament, open_round

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "other", "player", "organizer", "judge"]
ALL_200 = dict.fromkeys(ROLES, 200)
ONLY_ORGANIZER = {"anonymous": 403, "other": 403, "player": 403, "organizer": 200, "judge": 403}
# endpoint: (method, path, body, started?, expected status per role)
MATRIX = {
    "list": ("get", "/api/tournaments/", None, False, ALL_200),
    "detail": ("get", "/api/tournaments/{id}/", None, False, ALL_200),
    "create": ("post", "/api/tournaments/", {"game": "kartenduell", "name": "Neu"}, False,
               {"anonymous": 403, "other": 201, "player": 201, "organizer": 201, "judge": 201}),
    # A formal event: the organizer and the judge may not play.
    "register": ("post", "/api/tournaments/{id}/register/", {}, False,
                 {"anonymous": 403, "other": 201, "player": 409, "organizer": 403, "judge": 403}),
    "drop": ("post", "/api/tournaments/{id}/drop/", None, True,
             {"anonymous": 403, "other": 403, "player": 200, "organizer": 403, "judge": 403}),
    "rejoin": ("post", "/api/tournaments/{id}/rejoin/", None, True,
               {"anonymous": 403, "other": 403, "player": 409, "organizer": 403, "judge": 403}),
    "start": ("post", "/api/tournaments/{id}/start/", None, False, ONLY_ORGANIZER),
    "next-round": ("post", "/api/tournaments/{id}/next-round/", None, True, ONLY_ORGANIZER),
    # Judges disqualify too (tournaments.md, Der Orden, Mittelerde 26b).
    "disqualify": ("post", "/api/tournaments/{id}/disqualify/", {"user": "{p2}", "reason": "Absprache"}, True,
                   {"anonymous": 403, "other": 403, "player": 403, "organizer": 200, "judge": 200}),
    "results": ("post", "/api/tournaments/{id}/results/", {"match": "{match}", "placements": "{placements}"}, True,
                {"anonymous": 403, "other": 403, "player": 403, "organizer": 200, "judge": 200}),
    "round": ("get", "/api/tournaments/{id}/rounds/1/", None, True, ALL_200),
    "standings": ("get", "/api/tournaments/{id}/standings/", None, True, ALL_200),
}


def _setup(make_user, started: bool):
    org, judge, other = make_user("org"), make_user("judge"), make_user("other")
    players = [make_user(f"p{i}") for i in range(1, 5)]
    t = make_tournament(org, players, level="formal", rounds=2)
    services.add_official(t, org, judge, "judge")
    if started:
        services.start(t, org)
    return t, {"anonymous": None, "other": other, "player": players[0], "organizer": org, "judge": judge}, players


def _fill(value, ctx):
    if isinstance(value, dict):
        return {k: _fill(v, ctx) for k, v in value.items()}
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        return ctx[value[1:-1]]
    return value


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", list(MATRIX))
def test_authorization_matrix(make_user, endpoint, role):
    method, path, body, started, expected = MATRIX[endpoint]
    t, users, players = _setup(make_user, started)
    ctx = {"id": t.pk, "p2": players[1].pk}
    if started:
        table = Table.objects.filter(round=open_round(t)).first()
        ctx.update(match=table.match_id, placements=table.users)
    client = APIClient()
    if users[role] is not None:
        client.force_authenticate(users[role])
    r = getattr(client, method)(path.format(**ctx), _fill(body, ctx) if body else None, format="json")
    assert r.status_code == expected[role], (endpoint, role, r.status_code, r.content[:300])
    if r.status_code >= 400:
        assert set(r.json()) >= {"error", "detail"} and r.json()["detail"]


def test_head_judge_may_disqualify_a_player_may_not(make_user):
    t, users, players = _setup(make_user, True)
    head = make_user("head")
    services.add_official(t, users["organizer"], head, "head_judge")
    c = APIClient()
    c.force_authenticate(players[0])
    assert c.post(f"/api/tournaments/{t.pk}/disqualify/", {"user": players[1].pk, "reason": "x"},
                  format="json").status_code == 403
    c.force_authenticate(head)
    r = c.post(f"/api/tournaments/{t.pk}/disqualify/", {"user": players[1].pk, "reason": "Kartenmarkierung"},
               format="json")
    assert r.status_code == 200
    assert Entrant.objects.get(tournament=t, user=players[1]).status == "disqualified"
    # Never re-joins.
    c.force_authenticate(players[1])
    r = c.post(f"/api/tournaments/{t.pk}/rejoin/", format="json")
    assert r.status_code == 403 and "never" in r.json()["detail"]


def test_contract_create_rounds_results_standings(make_user):
    org = make_user("org")
    players = [make_user(f"p{i}") for i in range(5)]
    c = APIClient()
    c.force_authenticate(org)
    r = c.post("/api/tournaments/", {"game": "kartenduell", "name": "Liga-Cup", "format": "swiss_cut",
                                     "structure": "custom", "rounds": 2, "cut": 2, "scoring": "eiserner_thron",
                                     "tiebreakers": "eiserner_thron", "players_per_match": 2, "round_days": 5,
                                     "level": "casual", "rated": False}, format="json")
    assert r.status_code == 201, r.content
    tid = r.json()["id"]
    body = r.json()
    assert body["organizer"]["id"] == org.pk and body["rated"] is False and body["status"] == "registration"
    for p in players:
        c.force_authenticate(p)
        assert c.post(f"/api/tournaments/{tid}/register/", {}, format="json").status_code == 201
    c.force_authenticate(org)
    assert c.post(f"/api/tournaments/{tid}/start/", format="json").status_code == 200
    rnd = c.get(f"/api/tournaments/{tid}/rounds/1/").json()
    assert set(rnd) >= {"round", "stage", "pairings", "byes"} and rnd["round"] == 1 and rnd["stage"] == "swiss"
    assert len(rnd["pairings"]) == 2 and len(rnd["byes"]) == 1
    for p in rnd["pairings"]:
        assert set(p) >= {"table", "match", "users", "result"} and p["result"] is None
    first = rnd["pairings"][0]
    r = c.post(f"/api/tournaments/{tid}/results/", {"match": first["match"], "placements": first["users"][::-1],
                                                    "modified": True}, format="json")
    assert r.status_code == 200
    done = c.get(f"/api/tournaments/{tid}/rounds/1/").json()["pairings"][0]["result"]
    assert done["placements"] == first["users"][::-1] and done["modified"] is True
    # Bad placements: 400 with a message; an unknown match: 404.
    second = rnd["pairings"][1]
    r = c.post(f"/api/tournaments/{tid}/results/", {"match": second["match"], "placements": [1, 2]}, format="json")
    assert r.status_code == 400 and r.json()["error"] == "invalid"
    assert c.post(f"/api/tournaments/{tid}/results/", {"match": 999999, "placements": [1, 2]},
                  format="json").status_code == 404
    standings = c.get(f"/api/tournaments/{tid}/standings/").json()
    assert len(standings) == 5
    for row in standings:
        assert set(row) == {"rank", "user", "points", "wins", "tiebreakers", "dropped"}
        assert set(row["tiebreakers"]) == {"sos", "esos"}
    winner = first["users"][::-1][0]
    top = {row["user"]: row for row in standings}
    assert top[winner]["points"] == 4  # a modified win
    assert top[rnd["byes"][0]]["points"] == 0  # a bye is a win, counted once the round closes
    assert [row["rank"] for row in standings] == [1, 2, 3, 4, 5]
    assert c.get(f"/api/tournaments/{tid}/rounds/7/").status_code == 404
    assert c.get("/api/tournaments/424242/").status_code == 404
    assert c.get("/api/tournaments/").json()[0]["id"] == tid


def test_create_refusals_are_400_with_a_message(make_user):
    c = APIClient()
    c.force_authenticate(make_user("org"))
    for body, word in [({"game": "nope", "name": "x"}, "game"),
                       ({"game": "kartenduell", "name": "x", "format": "round_robin"}, "format"),
                       ({"game": "kartenduell", "name": "x", "players_per_match": 7}, "players"),
                       ({"game": "kartenduell", "name": "x", "format": "knockout", "players_per_match": 3}, "two"),
                       ({"game": "kartenduell", "name": "x", "format": "league"}, "season"),
                       ({"game": "kartenduell", "name": "x", "structure": "custom"}, "rounds"),
                       ({"game": "kartenduell", "name": "x", "players_per_match": 3, "scoring": "eiserner_thron"},
                        "placement")]:
        r = c.post("/api/tournaments/", body, format="json")
        assert r.status_code == 400 and word in r.json()["detail"], (body, r.content)


def test_deck_is_the_seat_choice_locked_and_passed_to_every_match(make_user):
    with deck_game():
        org = make_user("org")
        ann, ben = make_user("ann"), make_user("ben")
        c = APIClient()
        c.force_authenticate(org)
        tid = c.post("/api/tournaments/", {"game": DECK_GAME, "name": "Deck-Cup", "structure": "custom",
                                           "rounds": 1}, format="json").json()["id"]
        c.force_authenticate(ann)
        r = c.post(f"/api/tournaments/{tid}/register/", {}, format="json")
        assert r.status_code == 400 and "deck" in r.json()["detail"]
        r = c.post(f"/api/tournaments/{tid}/register/", {"deck": "someone-elses"}, format="json")
        assert r.status_code == 400
        assert c.post(f"/api/tournaments/{tid}/register/", {"deck": f"deck-{ann.pk}-b"},
                      format="json").status_code == 201
        c.force_authenticate(ben)
        assert c.post(f"/api/tournaments/{tid}/register/", {"deck": f"deck-{ben.pk}-a"},
                      format="json").status_code == 201
        assert Entrant.objects.get(user=ann).choices == {"deck": f"deck-{ann.pk}-b"}
        # Players see only their own deck; the organizer sees all.
        seen = {e["user"]: e.get("choices") for e in c.get(f"/api/tournaments/{tid}/").json()["entrants"]}
        assert seen == {ann.pk: None, ben.pk: {"deck": f"deck-{ben.pk}-a"}}
        c.force_authenticate(org)
        seen = {e["user"]: e.get("choices") for e in c.get(f"/api/tournaments/{tid}/").json()["entrants"]}
        assert seen[ann.pk] == {"deck": f"deck-{ann.pk}-b"}
        c.post(f"/api/tournaments/{tid}/start/", format="json")
        match = Table.objects.get(round__tournament_id=tid).match
        by_user = {s.user_id: match.choices[s.seat] for s in match.seats.all()}
        assert by_user == {ann.pk: {"deck": f"deck-{ann.pk}-b"}, ben.pk: {"deck": f"deck-{ben.pk}-a"}}
        # A game without decks refuses one.
        t = Tournament.objects.create(name="x", game="kartenduell", organizer=org, seed=1)
        c.force_authenticate(ann)
        r = c.post(f"/api/tournaments/{t.pk}/register/", {"deck": "x"}, format="json")
        assert r.status_code == 400 and "not played with decks" in r.json()["detail"]


def test_openapi_schema_lists_the_endpoints(client):
    r = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert r.status_code == 200
    text = r.content.decode()
    for p in ("/api/tournaments/{id}/register/", "/api/tournaments/{id}/rounds/{n}/",
              "/api/tournaments/{id}/results/", "/api/tournaments/{id}/standings/"):
        assert p in text
