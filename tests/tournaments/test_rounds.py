"""Rounds over time: deadlines with a controllable now, matches ending by the rules (the
match_finished signal), drops, re-joins, disqualification, judges' results and sanctions,
knockout from the start, pods, and leagues."""
from datetime import timedelta

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from matches import services as match_services
from matches.models import Match, Seat
from tournaments import services
from tournaments.errors import Conflict, Forbidden, Invalid
from tournaments.loading import load
from tournaments.models import Entrant, Round, Sanction, Table, Tournament
from tests.conftest import wait_for
from tests.tournaments.helpers import T0, decide_open_round, later, make_tournament, open_round, play_out


def _first_move(match):
    seat = Seat.objects.get(match=match, seat=match.to_move[0])
    match_services.submit_action(match.pk, seat.user, {"type": "play", "card": match.state["hands"][seat.seat][0]},
                                 match.version)
    return seat.user_id


@pytest.mark.django_db
def test_deadline_modified_win_when_both_moved_and_no_shows_lose(make_user):
    """Both moved: a modified win by the game's tie-break. A seat that had its turn and never
    moved is a no-show (test_second_pass.py has the details): it loses and leaves."""
    org = make_user("org")
    t = make_tournament(org, [make_user(f"p{i}") for i in range(4)], rounds=2, round_days=3)
    services.start(t, org, now=T0)
    r1 = open_round(t)
    assert r1.deadline == T0 + timedelta(days=3)
    started, unstarted = list(Table.objects.filter(round=r1))
    first = _first_move(started.match)
    started.match.refresh_from_db()
    second = _first_move(started.match)
    assert services.close_due_rounds(now=later(2.9)) == 0
    assert open_round(t).pk == r1.pk
    assert services.close_due_rounds(now=later(3)) == 1
    started.refresh_from_db(), unstarted.refresh_from_db()
    assert started.result["kind"] == "modified_win" and set(started.result["placements"]) == {first, second}
    assert started.result["source"] == "deadline"
    assert unstarted.result["kind"] == "win" and unstarted.result["source"] == "no_show"
    assert Match.objects.get(pk=started.match_id).status == "aborted"
    assert not Seat.objects.filter(match_id=started.match_id, to_move=True).exists()
    points = {row.user: row.points for row in load(t).standings()}
    assert sorted(points.values()) == [0, 0, 4, 5]
    r2 = open_round(t)
    assert r2.number == 2 and r2.deadline == later(3) + timedelta(days=3)
    # The management command does the same as the beat task, with --now.
    call_command("close_tournament_rounds", now=(later(6) + timedelta(minutes=1)).isoformat())
    t.refresh_from_db()
    assert t.status == "finished" and t.winner_id is not None


@pytest.mark.django_db(transaction=True)
def test_matches_ending_by_the_rules_close_the_round_and_pair_the_next(make_user, celery_worker):
    org = make_user("org")
    t = make_tournament(org, [make_user(f"p{i}") for i in range(4)], rounds=2)
    services.start(t, org)
    for table in Table.objects.filter(round=open_round(t)):
        play_out(table.match_id)
    wait_for(lambda: Round.objects.filter(tournament=t).count() == 2)
    r1 = Round.objects.get(tournament=t, number=1)
    assert r1.closed and all(tb.result["source"] == "game" for tb in r1.tables.all())
    for table in Table.objects.filter(round__number=2, round__tournament=t):
        play_out(table.match_id)
    wait_for(lambda: Tournament.objects.get(pk=t.pk).status == "finished")
    rows = load(Tournament.objects.get(pk=t.pk)).standings()
    assert Tournament.objects.get(pk=t.pk).winner_id == rows[0].user and rows[0].points >= 5


@pytest.mark.django_db(transaction=True)
def test_bots_play_a_swiss_with_a_cut_to_its_winner(make_user, celery_worker):
    org = make_user("org")
    t = make_tournament(org, [], format="swiss_cut", rounds=3, cut=4)
    for _ in range(6):
        services.add_bot(t, org)
    services.start(t, org)
    wait_for(lambda: Tournament.objects.get(pk=t.pk).status == "finished", timeout=60)
    t.refresh_from_db()
    ko = Round.objects.filter(tournament=t, stage="knockout").order_by("number")
    assert [r.stage_round for r in ko] == [1, 2]
    final = ko.last().tables.get()
    assert t.winner_id == final.result["placements"][0]
    assert Round.objects.filter(tournament=t, stage="swiss").count() == 3


@pytest.mark.django_db
def test_drop_rejoin_with_unpaired_losses_and_disqualify(make_user):
    org = make_user("org")
    ps = [make_user(f"p{i}") for i in range(6)]
    t = make_tournament(org, ps, rounds=4)
    services.start(t, org, now=T0)
    decide_open_round(t, org)  # round 1
    # p5 drops during round 2: resigning hands the opponent the win.
    table = next(tb for tb in Table.objects.filter(round=open_round(t)) if ps[5].pk in tb.users)
    services.drop(t, ps[5])
    assert Match.objects.get(pk=table.match_id).status == "finished"
    services.match_finished(table.match_id)  # what the match_finished task does
    table.refresh_from_db()
    assert table.result["placements"][1] == ps[5].pk and table.result["source"] == "game"
    with pytest.raises(Conflict):
        services.drop(t, ps[5])
    decide_open_round(t, org)  # round 2 closes, round 3 is paired without p5
    r3 = open_round(t)
    assert not any(ps[5].pk in tb.users for tb in r3.tables.all()) and ps[5].pk not in r3.byes
    # Re-joining during round 3: an unpaired loss for round 3 (missed), none for round 2 (played).
    services.rejoin(t, ps[5])
    assert ps[5].pk in Round.objects.get(pk=r3.pk).unpaired_losses
    assert ps[5].pk not in Round.objects.get(tournament=t, number=2).unpaired_losses
    row = next(r for r in load(t).standings() if r.user == ps[5].pk)
    assert row.rounds == 3 and not row.dropped
    decide_open_round(t, org)
    assert any(ps[5].pk in tb.users for tb in open_round(t).tables.all()) or ps[5].pk in open_round(t).byes
    # Disqualification: recorded with its reason, never re-joins, listed last.
    with pytest.raises(Invalid):
        services.disqualify(t, org, ps[4], "  ")
    services.disqualify(t, org, ps[4], "Unsportliches Verhalten")
    s = Sanction.objects.get(user=ps[4])
    assert (s.kind, s.reason, s.applied, s.issued_by) == ("disqualification", "Unsportliches Verhalten", True, org)
    with pytest.raises(Forbidden):
        services.rejoin(t, ps[4])
    with pytest.raises(Forbidden):
        services.disqualify(t, ps[0], ps[1], "no")
    rows = load(t).standings()
    assert rows[-1].user == ps[4].pk and rows[-1].dropped


@pytest.mark.django_db
def test_withdraw_before_the_start_and_signup_deadline(make_user):
    org, ann = make_user("org"), make_user("ann")
    t = make_tournament(org, [ann], signup_deadline=later(1))
    services.drop(t, ann)
    assert not Entrant.objects.filter(tournament=t).exists()
    services.register(t, ann, now=T0)
    with pytest.raises(Conflict):
        services.register(t, make_user("late"), now=later(1))
    with pytest.raises(Conflict):
        services.start(t, org)  # one player
    with pytest.raises(Conflict):
        services.register(t, ann, now=T0)


@pytest.mark.django_db
def test_judges_set_results_and_record_sanctions(make_user):
    org, judge = make_user("org"), make_user("judge")
    ps = [make_user(f"p{i}") for i in range(4)]
    t = make_tournament(org, ps, rounds=2)
    services.add_official(t, org, judge, "judge")
    services.start(t, org, now=T0)
    a_table, b_table = Table.objects.filter(round=open_round(t))
    a, b = a_table.users
    # "Descend one rank": recorded with its reason as an instruction (no engine hook).
    s = services.sanction(t, judge, Entrant.objects.get(tournament=t, user_id=a).user, "descend_rank",
                          "Regelverstoß: zu viele Karten")
    assert (s.kind, s.applied, s.table_id, s.reason) == ("descend_rank", False, a_table.pk, "Regelverstoß: zu viele Karten")
    with pytest.raises(Invalid):
        services.sanction(t, judge, ps[0], "warning", "")
    with pytest.raises(Forbidden):
        services.sanction(t, ps[1], ps[0], "warning", "weil")
    # A game loss sets the result: the sanctioned player last.
    user_a = Entrant.objects.get(tournament=t, user_id=a).user
    services.sanction(t, judge, user_a, "game_loss", "Zu spät erschienen")
    a_table.refresh_from_db()
    assert a_table.result["placements"] == [b, a] and a_table.decided_by == judge
    assert Match.objects.get(pk=a_table.match_id).status == "aborted"
    # A judge's result on the other table closes the round; a closed round's results are final.
    services.set_result(t, judge, b_table.match_id, b_table.users, modified=True)
    assert open_round(t).number == 2
    with pytest.raises(Forbidden):  # the round is closed: only the organizer or a head judge corrects it
        services.set_result(t, judge, b_table.match_id, b_table.users[::-1])
    with pytest.raises(Forbidden):
        services.set_result(t, ps[0], open_round(t).tables.first().match_id, open_round(t).tables.first().users)


@pytest.mark.django_db
def test_formal_events_keep_officials_out_of_play(make_user):
    org, judge, ann = make_user("org"), make_user("judge"), make_user("ann")
    t = make_tournament(org, [ann], level="premium")
    services.add_official(t, org, judge)
    for user in (org, judge):
        with pytest.raises(Forbidden):
            services.register(t, user)
    with pytest.raises(Conflict):
        services.add_official(t, org, ann)  # a registered player cannot become an official
    casual = make_tournament(org, [ann], level="casual")
    services.register(casual, org)  # a casual organizer may play


@pytest.mark.django_db
def test_knockout_from_the_start_gives_random_byes_up_to_a_power_of_two(make_user):
    org = make_user("org")
    ps = [make_user(f"p{i}") for i in range(5)]
    t = make_tournament(org, ps, format="knockout")
    services.start(t, org, now=T0)
    r1 = open_round(t)
    assert r1.stage == "knockout" and len(r1.byes) == 3 and r1.tables.count() == 1
    assert sorted(s["match"] for s in r1.bracket) == [1, 2, 3, 4]
    for _ in range(3):
        decide_open_round(t, org)
    t.refresh_from_db()
    assert t.status == "finished" and t.winner_id in [p.pk for p in ps]
    html = APIClient().get(f"/api/tournaments/{t.pk}/rounds/3/").json()
    assert html["stage"] == "knockout" and len(html["pairings"]) == 1


@pytest.mark.django_db
def test_drop_between_knockout_rounds_gives_the_opponent_a_bye(make_user):
    org = make_user("org")
    ps = [make_user(f"p{i}") for i in range(4)]
    t = make_tournament(org, ps, format="knockout")
    services.start(t, org, now=T0)
    r1 = open_round(t)
    tables = list(r1.tables.all())
    services.set_result(t, org, tables[0].match_id, tables[0].users)
    services.drop(t, Entrant.objects.get(tournament=t, user_id=tables[0].users[0]).user)  # finalist drops
    services.set_result(t, org, tables[1].match_id, tables[1].users)
    t.refresh_from_db()
    # The final had one player left: a bye round, closed at once, and that player wins.
    assert t.status == "finished" and t.winner_id == tables[1].users[0]


@pytest.mark.django_db
def test_pods_of_three_or_four_scored_by_placement(make_user):
    org = make_user("org")
    ps = [make_user(f"p{i}") for i in range(7)]
    t = make_tournament(org, ps, players_per_match=4, scoring="placement", rounds=2)
    services.start(t, org, now=T0)
    sizes = sorted(len(tb.users) for tb in open_round(t).tables.all())
    assert sizes == [3, 4]
    assert all(len(Match.objects.get(pk=tb.match_id).seats.all()) == len(tb.users)
               for tb in open_round(t).tables.all())
    decide_open_round(t, org)
    points = sorted(row.points for row in load(t).standings())
    assert points == [0, 0, 1, 1, 2, 2, 3]  # 3/2/1/0 and 2/1/0


@pytest.mark.django_db
def test_league_table_rank_points_late_sign_up_and_season_end(make_user, monkeypatch):
    from games import registry

    # The test game scores leagues by rank here, as Der Orden does (Plugin.league_rank_points).
    monkeypatch.setattr(registry.get("kartenduell"), "league_rank_points",
                        lambda: {"0": 0, "III": 3, "VI+": "6.5"})
    org = make_user("org")
    ps = [make_user(f"p{i}") for i in range(4)]
    t = make_tournament(org, [], format="league", structure="basis", rounds=None, scoring="placement",
                        season_end=later(10), round_days=3)
    for p in ps:
        services.register(t, p, now=T0)
    services.start(t, org, now=T0)
    r1 = open_round(t)
    # A Der Orden-like outcome carries the rank reached: league points are the rank (VI+ = 6.5).
    ranks = ["VI+", "III"]
    for tb in r1.tables.all():
        m = Match.objects.get(pk=tb.match_id)
        seats = {s.seat: s.user_id for s in m.seats.all()}
        m.status, m.outcome = "finished", {"placements": [
            {"seat": 0, "place": 1, "rank": ranks[0]}, {"seat": 1, "place": 2, "rank": ranks[1]}]}
        m.save(update_fields=["status", "outcome"])
        services.match_finished(m.pk, now=later(1))
        tb.refresh_from_db()
        assert tb.result["ranks"] == {str(seats[0]): "VI+", str(seats[1]): "III"}
    assert sorted(float(r.points) for r in load(t).standings()) == [3, 3, 6.5, 6.5]
    # Open-ended: a late player signs up while the league runs and is paired next round.
    late = make_user("late")
    services.register(t, late, now=later(1))
    r2 = open_round(t)
    assert r2.number == 2  # paired when round 1 ended
    decide_open_round(t, org, now=later(2))
    r3 = open_round(t)
    assert any(late.pk in tb.users for tb in r3.tables.all()) or late.pk in r3.byes
    # The season ends: the open round closes at its deadline and the league is over.
    services.close_due_rounds(now=later(11))
    t.refresh_from_db()
    assert t.status == "finished" and open_round(t) is None
    with pytest.raises(Conflict):
        services.register(t, make_user("after"), now=later(12))
    table = APIClient().get(f"/api/tournaments/{t.pk}/standings/").json()
    assert len(table) == 5 and table[0]["points"] >= 6.5


@pytest.mark.django_db
def test_pairings_reminders_and_the_end_reach_players_through_the_notifications_app(
        make_user, django_capture_on_commit_callbacks):
    from notifications.models import Notification

    def kinds_of(kind):
        return sorted((n.user.username, n.data.get("round"), n.data["url"])
                      for n in Notification.objects.filter(kind=kind).select_related("user"))

    org = make_user("org")
    t = make_tournament(org, [make_user(f"p{i}") for i in range(2)], rounds=1, round_days=3)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(t, org, now=T0)
    match_id = open_round(t).tables.get().match_id
    assert kinds_of("tournament_paired") == [("p0", 1, f"/matches/{match_id}/"), ("p1", 1, f"/matches/{match_id}/")]
    with django_capture_on_commit_callbacks(execute=True):
        services.close_due_rounds(now=later(1))  # two days before: no reminder yet
    assert kinds_of("tournament_deadline") == []
    with django_capture_on_commit_callbacks(execute=True):
        services.close_due_rounds(now=later(2.5))
        services.close_due_rounds(now=later(2.6))  # once only
    assert kinds_of("tournament_deadline") == [("p0", 1, f"/tournaments/{t.pk}/"), ("p1", 1, f"/tournaments/{t.pk}/")]
    with django_capture_on_commit_callbacks(execute=True):
        services.close_due_rounds(now=later(4))  # the deadline passed: the round closes, the event ends
    t.refresh_from_db()
    assert t.status == "finished"
    assert [u for u, _, _ in kinds_of("tournament_finished")] == ["p0", "p1"]


def test_without_the_notifications_app_nothing_is_sent(monkeypatch):
    import sys

    from tournaments import notify

    monkeypatch.setitem(sys.modules, "notifications.services", None)  # import fails
    assert notify.send([1, 2], "round_paired", {}, key="k") == 0
