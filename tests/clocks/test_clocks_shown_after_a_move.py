"""The game page right after a move: the worker's follow-up starts and stops the clocks a moment
after the commit, and the live part pushed in between shows them as that follow-up leaves them
(not the clock of the player who just moved still running, and none for the player to move)."""
from datetime import timedelta

import pytest

from clocks.models import SeatClock, TimeControl
from clocks.presenters import match_clocks
from lobby import services as lobby
from matches import services as match_services
from matches.models import LogEntry, Match

pytestmark = pytest.mark.django_db(transaction=True)


def _start(users, **tc):
    from clocks.invitation import save

    invitation = lobby.create_invitation(users[0], game="kartenduell", players=len(users), move_days=1)
    save(invitation, {"clock_policy": "forfeit", **tc})
    for u in users[1:]:
        lobby.join(invitation.pk, u)
    invitation.refresh_from_db()
    return invitation.match


def _shown(match, **actor):
    seats = list(match.seats.select_related("user"))
    rows = match_clocks(match, seats, now=match.updated_at + timedelta(seconds=1), **actor)["rows"]
    return {r["seat"]: (r.get("running", False), round(r.get("hours_left", -1), 3), r.get("deadline"),
                        None if r.get("bank_hours") is None else round(r["bank_hours"], 3)) for r in rows}


@pytest.mark.parametrize("tc", [{}, {"clock_mode": "bank", "clock_bank_hours": 48, "clock_increment_hours": 6}])
def test_clocks_show_the_follow_up_of_the_move_before_it_ran(make_user, tc):
    users = [make_user(n) for n in ("anna", "bert", "cora")]
    match = _start(users, **tc)
    for _ in range(2):  # a few turns in, so that used time and banks are not the starting ones
        match.refresh_from_db()
        mover = match.seats.get(seat=match.to_move[0]).user
        action = match_services.plugin_for(match).engine.legal_actions(match.state, match.to_move[0])[0]
        before_rows = list(SeatClock.objects.filter(match=match).values())
        before_version = TimeControl.objects.get(match=match).version
        match_services.submit_action(match.pk, mover, action, match.version)  # the follow-up runs inline here
        match = Match.objects.get(pk=match.pk)
        assert TimeControl.objects.get(match=match).version == match.version
        followed = _shown(match)
        running_after = {c.seat_id: c.started_at is not None for c in SeatClock.objects.filter(match=match)}
        # The moment between the commit and the follow-up: the clocks as they were before the move.
        for row in before_rows:
            SeatClock.objects.filter(pk=row["id"]).update(**{k: v for k, v in row.items() if k != "id"})
        TimeControl.objects.filter(match=match).update(version=before_version)
        # (the rows themselves say otherwise: the player who moved still running)
        assert {c.seat_id: c.started_at is not None for c in SeatClock.objects.filter(match=match)} != running_after
        actor = LogEntry.objects.get(match=match, seq=match.version).seat
        for shown in (_shown(match), _shown(match, actor=actor)):  # the actor read from the log, or given
            assert shown.keys() == followed.keys()
            for seat, (running, hours, deadline, bank) in followed.items():
                p_running, p_hours, p_deadline, p_bank = shown[seat]
                assert p_running == running and p_bank == bank
                if running:  # the follow-up stamped its own start, a moment after the commit
                    assert abs(p_hours - hours) < 0.01 and abs(p_deadline - deadline) < timedelta(seconds=5)
        # the follow-up runs after all: rows as it writes them again
        match_services.send_change_signals(match.pk, match.version, match.status, match.to_move, None)

