"""Closing the gaps: a league that ran short of players pairs again by itself, and closed
rounds can be corrected by the organizer or a head judge, with the reason on record."""
import pytest
from rest_framework.test import APIClient

from tournaments import services
from tournaments.errors import Conflict, Forbidden, Invalid
from tournaments.loading import load
from tournaments.models import Official, ResultCorrection, Round, Table
from tests.tournaments.helpers import T0, decide_open_round, later, make_tournament, open_round

pytestmark = pytest.mark.django_db


def test_a_league_short_of_players_waits_and_pairs_when_two_are_active_again(make_user):
    org = make_user("org")
    a, b = make_user("a"), make_user("b")
    t = make_tournament(org, [a, b], format="league", structure="basis", rounds=None, scoring="placement",
                        season_end=later(30), round_days=3)
    services.start(t, org, now=T0)
    services.drop(t, b, now=later(0.5))  # b leaves during round 1: its table is decided at the deadline
    services.close_due_rounds(now=later(3.1))
    assert open_round(t) is None  # one active player: nothing to pair, the league waits
    services.close_due_rounds(now=later(4))
    assert open_round(t) is None
    c = make_user("c")
    services.register(t, c, now=later(5))
    services.close_due_rounds(now=later(5))  # the periodic job pairs it, nobody has to press a button
    rnd = open_round(t)
    assert rnd is not None and rnd.number == 2
    assert sorted(u for tb in rnd.tables.all() for u in tb.users) == sorted([a.pk, c.pk])
    services.close_due_rounds(now=later(31))  # the season ends: finished with its table
    t.refresh_from_db()
    assert t.status == "finished"


def swiss_after_round_one(make_user):
    org, head, judge = make_user("org"), make_user("head"), make_user("judge")
    players = [make_user(f"p{i}") for i in range(4)]
    t = make_tournament(org, players, rounds=2)
    services.add_official(t, org, head, Official.Role.HEAD_JUDGE)
    services.add_official(t, org, judge, Official.Role.JUDGE)
    services.start(t, org, now=T0)
    r1 = decide_open_round(t, org)  # lower user id wins
    return t, org, head, judge, players, r1


def test_head_judge_corrects_a_closed_swiss_round_and_the_standings_follow(make_user):
    t, org, head, judge, players, r1 = swiss_after_round_one(make_user)
    r2 = open_round(t)
    pairings_before = sorted(tuple(tb.users) for tb in r2.tables.all())
    table = Table.objects.filter(round=r1).order_by("table").first()
    loser, winner = table.result["placements"][1], table.result["placements"][0]
    points_before = {r.user: r.points for r in load(t).standings()}

    with pytest.raises(Forbidden):
        services.set_result(t, judge, table.match_id, [loser, winner], reason="Uhr falsch")  # judges: open rounds only
    with pytest.raises(Invalid):
        services.set_result(t, head, table.match_id, [loser, winner], reason="  ")  # a reason is required
    services.set_result(t, head, table.match_id, [loser, winner], reason="Ergebnis vertauscht gemeldet")

    table.refresh_from_db()
    assert table.result["placements"] == [loser, winner] and table.result["source"] == "correction"
    corr = ResultCorrection.objects.get(table=table)
    assert corr.by == head and corr.reason == "Ergebnis vertauscht gemeldet"
    assert corr.old["placements"] == [winner, loser] and corr.new["placements"] == [loser, winner]
    points = {r.user: r.points for r in load(t).standings()}
    assert points[loser] > points_before[loser] and points[winner] < points_before[winner]
    # Pairings already made from the old standings stand.
    assert sorted(tuple(tb.users) for tb in Round.objects.get(pk=r2.pk).tables.all()) == pairings_before
    # The API's standings and the round page show it.
    api = APIClient().get(f"/api/tournaments/{t.pk}/standings/").json()
    assert {row["user"]: row["points"] for row in api}[loser] == float(points[loser])


def test_corrections_through_the_api_and_the_page(make_user, client):
    t, org, head, judge, players, r1 = swiss_after_round_one(make_user)
    table = Table.objects.filter(round=r1).order_by("table").first()
    new = list(reversed(table.result["placements"]))
    api = APIClient()
    api.force_authenticate(judge)
    r = api.post(f"/api/tournaments/{t.pk}/results/", {"match": table.match_id, "placements": new,
                                                        "reason": "x"}, format="json")
    assert r.status_code == 403 and r.json()["error"]
    api.force_authenticate(players[2])
    assert api.post(f"/api/tournaments/{t.pk}/results/", {"match": table.match_id, "placements": new,
                                                           "reason": "x"}, format="json").status_code == 403
    api.force_authenticate(org)
    r = api.post(f"/api/tournaments/{t.pk}/results/", {"match": table.match_id, "placements": new}, format="json")
    assert r.status_code == 400  # no reason
    r = api.post(f"/api/tournaments/{t.pk}/results/", {"match": table.match_id, "placements": new,
                                                        "reason": "Protest angenommen"}, format="json")
    assert r.status_code == 200, r.content
    client.force_login(org)
    page = client.get(f"/tournaments/{t.pk}/rounds/1/").content.decode()
    assert "Protest angenommen" in page and 'id="corrections"' in page and "correct-form" in page
    client.force_login(players[0])
    assert "correct-form" not in client.get(f"/tournaments/{t.pk}/rounds/1/").content.decode()


def test_knockout_results_that_fed_a_later_round_are_final_but_the_final_can_be_corrected(make_user):
    org = make_user("org")
    players = [make_user(f"k{i}") for i in range(4)]
    t = make_tournament(org, players, format="knockout", structure="custom", rounds=None)
    services.start(t, org, now=T0)
    semis = decide_open_round(t, org)
    semi = Table.objects.filter(round=semis).first()
    with pytest.raises(Conflict):
        services.set_result(t, org, semi.match_id, list(reversed(semi.result["placements"])), reason="zu spät")
    final_round = decide_open_round(t, org)
    t.refresh_from_db()
    assert t.status == "finished"
    final = Table.objects.get(round=final_round)
    champion, runner_up = final.result["placements"]
    assert t.winner_id == champion
    services.set_result(t, org, final.match_id, [runner_up, champion], reason="Schiedsrichterentscheid")
    t.refresh_from_db()
    assert t.winner_id == runner_up
