"""Tournaments, second pass: no-shows, the cut's replacement, Mittelerde results
and knockout ties, roles, and the smaller defects. Each test failed on the code before."""
from datetime import timedelta
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from matches import services as match_services
from matches.models import Seat
from tournaments import services
from tournaments.errors import Conflict, Invalid
from tournaments.loading import load
from tournaments.models import Entrant, Table
from tests.tournaments.helpers import T0, later, make_tournament, open_round


def _first_move(match):
    seat = Seat.objects.get(match=match, seat=match.to_move[0])
    match_services.submit_action(match.pk, seat.user, {"type": "play", "card": match.state["hands"][seat.seat][0]},
                                 match.version)
    return seat.user_id


def _to_move_user(table):
    m = table.match
    return Seat.objects.get(match=m, seat=m.to_move[0]).user_id


def _status(t, uid):
    return Entrant.objects.get(tournament=t, user_id=uid).status


# --- 1. no-shows ----------------------------------------------------------------------------------
@pytest.mark.django_db
def test_no_show_loses_is_dropped_and_the_waiting_opponent_wins_outright(make_user):
    org = make_user("org")
    t = make_tournament(org, [make_user(f"p{i}") for i in range(4)], rounds=2, round_days=3)
    services.start(t, org, now=T0)
    started, unstarted = list(Table.objects.filter(round=open_round(t)))
    mover = _first_move(started.match)
    started.refresh_from_db()
    late = _to_move_user(started)  # had the turn after the first move, never moved
    absent = _to_move_user(unstarted)  # had the first turn, never moved
    waited = next(u for u in unstarted.users if u != absent)  # never had a turn
    services.close_due_rounds(now=later(3))
    started.refresh_from_db(), unstarted.refresh_from_db()
    assert started.result["placements"] == [mover, late] and started.result["kind"] == "win"
    assert unstarted.result["placements"] == [waited, absent] and unstarted.result["kind"] == "win"
    assert _status(t, late) == _status(t, absent) == "dropped"
    points = {r.user: r.points for r in load(t).standings()}
    assert points[mover] == points[waited] == 5 and points[late] == points[absent] == 0
    r2 = open_round(t)
    assert [sorted(tb.users) for tb in r2.tables.all()] == [sorted([mover, waited])]


@pytest.mark.django_db
def test_knockout_final_nobody_moved_has_a_winner(make_user):
    org = make_user("org")
    a, b = make_user("a"), make_user("b")
    t = make_tournament(org, [a, b], format="knockout", structure="custom", rounds=None, round_days=2)
    services.start(t, org, now=T0)
    final = Table.objects.get(round=open_round(t))
    absent = _to_move_user(final)
    services.close_due_rounds(now=later(30))
    t.refresh_from_db()
    assert t.status == "finished" and t.winner_id == next(u for u in final.users if u != absent)


# --- 2. the cut's replacement -------------------------------------------------------------------------
@pytest.mark.django_db
def test_qualified_player_dropping_before_the_first_knockout_game_is_replaced(make_user):
    org = make_user("org")
    ps = [make_user(f"p{i}") for i in range(6)]
    t = make_tournament(org, ps, format="swiss_cut", rounds=1, cut=2, round_days=2)
    services.start(t, org, now=T0)
    for tb in Table.objects.filter(round=open_round(t)):
        services.set_result(t, org, tb.match_id, sorted(tb.users), now=T0)
    ranking = [r.user for r in load(t).standings()]
    ko = open_round(t)
    assert ko.stage == "knockout"
    (table,) = ko.tables.all()
    assert sorted(table.users) == sorted(ranking[:2])
    gone = ranking[0]
    services.drop(t, ps[[p.id for p in ps].index(gone)], now=T0)
    ko = open_round(t)
    (table,) = ko.tables.all()
    assert table.users == [ranking[1], ranking[2]]  # the next in the standings enters as the lowest seed
    assert table.result is None  # no walkover


# --- 3. Mittelerde results ----------------------------------------------------------------------------
@pytest.mark.django_db
def test_judge_enters_mittelerde_kinds_and_unknown_kinds_are_refused(make_user):
    org = make_user("org")
    ps = [make_user(f"p{i}") for i in range(4)]
    t = make_tournament(org, ps, rounds=2, scoring="mittelerde", tiebreakers="mittelerde")
    services.start(t, org, now=T0)
    t1, t2 = Table.objects.filter(round=open_round(t))
    with pytest.raises(Invalid):
        services.set_result(t, org, t1.match_id, t1.users, kind="drawish", now=T0)
    services.set_result(t, org, t1.match_id, t1.users, kind="draw", now=T0)
    api = APIClient()
    api.force_login(org)
    r = api.post(f"/api/tournaments/{t.pk}/results/", {"match": t2.match_id, "placements": t2.users,
                                                        "kind": "council"}, format="json")
    assert r.status_code == 200, r.content
    points = {row.user: row.points for row in load(t).standings()}
    assert points[t1.users[0]] == points[t1.users[1]] == 3
    assert points[t2.users[0]] == Decimal("3.5") and points[t2.users[1]] == Decimal("2.5")


@pytest.mark.django_db
def test_mittelerde_knockout_tie_is_decided_by_2w6(make_user):
    org = make_user("org")
    ps = [make_user(f"p{i}") for i in range(4)]
    t = make_tournament(org, ps, format="knockout", structure="custom", rounds=None, scoring="mittelerde",
                        tiebreakers="mittelerde")
    services.start(t, org, now=T0)
    semi = list(Table.objects.filter(round=open_round(t)))
    services.set_result(t, org, semi[0].match_id, semi[0].users, kind="draw", now=T0)
    services.set_result(t, org, semi[1].match_id, semi[1].users, now=T0)
    semi[0].refresh_from_db()
    res = semi[0].result
    assert res["kind"] == "win" and res["tiebreak"] == "2W6"
    assert res["dice"][str(res["placements"][0])] > res["dice"][str(res["placements"][1])]
    (final,) = Table.objects.filter(round=open_round(t))
    assert sorted(final.users) == sorted([res["placements"][0], semi[1].users[0]])


# --- 5. roles -------------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_organizer_drops_a_player_and_a_judge_disqualifies(make_user):
    org, judge = make_user("org"), make_user("judge")
    ps = [make_user(f"p{i}") for i in range(4)]
    t = make_tournament(org, ps, rounds=2)
    services.add_official(t, org, judge)
    services.start(t, org, now=T0)
    api = APIClient()
    api.force_login(org)
    r = api.post(f"/api/tournaments/{t.pk}/drop/", {"user": ps[0].id}, format="json")
    assert r.status_code == 200, r.content
    assert _status(t, ps[0].id) == "dropped"
    api.force_login(judge)
    r = api.post(f"/api/tournaments/{t.pk}/disqualify/", {"user": ps[1].id, "reason": "Gezinkte Würfel"},
                 format="json")
    assert r.status_code == 200, r.content
    assert _status(t, ps[1].id) == "disqualified"
    api.force_login(ps[2])  # a player may not drop another
    r = api.post(f"/api/tournaments/{t.pk}/drop/", {"user": ps[3].id}, format="json")
    assert r.status_code == 403 and r.json()["error"]


# --- 6. smaller --------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_open_rounds_bye_not_counted_in_standings(make_user):
    org = make_user("org")
    t = make_tournament(org, [make_user(f"p{i}") for i in range(5)], rounds=2)
    services.start(t, org, now=T0)
    rnd = open_round(t)
    (bye,) = rnd.byes
    rows = load(t).standings()
    # All at 0 points, the order is the random tie-break: the bye may be first by chance
    # (1 in 5; a flaky "not first" check failed under xdist), but not by its points.
    assert all(r.points == 0 for r in rows)
    assert next(r for r in rows if r.user == bye).byes == 0
    api = APIClient()
    assert {row["user"]: row["points"] for row in api.get(f"/api/tournaments/{t.pk}/standings/").json()}[bye] == 0


@pytest.mark.django_db
def test_final_gets_longer(make_user):
    org = make_user("org")
    t = make_tournament(org, [make_user("a"), make_user("b")], format="knockout", structure="custom",
                        rounds=None, round_days=3)
    services.start(t, org, now=T0)
    assert open_round(t).deadline == T0 + timedelta(days=7)  # 3 days × 120/55, rounded up


@pytest.mark.django_db
def test_cut_with_plain_swiss_is_refused(make_user):
    org = make_user("org")
    with pytest.raises(Invalid):
        make_tournament(org, [], format="swiss", cut=4)
    t = make_tournament(org, [make_user(f"p{i}") for i in range(17)], format="swiss", structure="basis", rounds=None)
    with pytest.raises(Conflict):  # Basis for 17 players: 4 rounds and a top 4
        services.start(t, org, now=T0)


@pytest.mark.django_db
def test_point_deduction_sanction(make_user):
    org, judge = make_user("org"), make_user("judge")
    ps = [make_user(f"p{i}") for i in range(4)]
    t = make_tournament(org, ps, rounds=2)
    services.add_official(t, org, judge)
    services.start(t, org, now=T0)
    for tb in Table.objects.filter(round=open_round(t)):
        services.set_result(t, org, tb.match_id, sorted(tb.users), now=T0)
    winner = min(ps[0].id, next(u for tb in Table.objects.filter(round__number=1, round__tournament=t)
                                 for u in tb.users if ps[0].id in tb.users))
    api = APIClient()
    api.force_login(judge)
    r = api.post(f"/api/tournaments/{t.pk}/sanctions/", {"user": winner, "kind": "point_deduction",
                                                          "reason": "wiederholte Verstöße (26b)", "points": 2},
                 format="json")
    assert r.status_code == 201, r.content
    assert {row.user: row.points for row in load(t).standings()}[winner] == 3
    r = api.post(f"/api/tournaments/{t.pk}/sanctions/", {"user": winner, "kind": "point_deduction",
                                                          "reason": "x"}, format="json")
    assert r.status_code == 400


def test_league_bye_is_no_win():
    from tournaments.logic import Round, match, standings

    rounds = [Round(1, (match(1, 2, 1),), byes=(3,))]
    rows = {r.user: r for r in standings([1, 2, 3], rounds, scheme="league")}
    assert rows[3].points == 0 and rows[3].wins == 0


@pytest.mark.django_db
def test_point_deduction_from_the_page(make_user, client):
    org = make_user("org")
    ps = [make_user(f"p{i}") for i in range(4)]
    t = make_tournament(org, ps, rounds=2)
    services.start(t, org, now=T0)
    client.force_login(org)
    page = client.get(f"/tournaments/{t.pk}/")
    assert b'name="points"' in page.content
    r = client.post(f"/tournaments/{t.pk}/do/sanction/", {"user": ps[0].id, "kind": "point_deduction",
                                                        "reason": "26b", "points": "1.5"})
    assert r.status_code == 302
    assert {row.user: row.points for row in load(t).standings()}[ps[0].id] == Decimal("-1.5")
    assert "−1.5" in client.get(f"/tournaments/{t.pk}/").content.decode()
