"""A match where one player stops moving: reminded at 50 % and 90 %, a vacation day taken
automatically, then the timeout policy; the others play on. The clock is driven by passing
``now`` to the services (nothing patches time)."""
from datetime import timedelta

import pytest
from django.test import Client

from clocks import conf as clock_conf, services as clocks
from clocks.models import PlayerRecord, SeatClock, TimeControl, Vacation
from lobby import services as lobby
from matches import services as match_services
from matches.models import Match
from notifications.models import Notification
from tests.conftest import wait_for

pytestmark = pytest.mark.django_db(transaction=True)
DAY = timedelta(days=1)


def _start(users, policy, **tc):
    from clocks.invitation import save

    invitation = lobby.create_invitation(users[0], game="kartenduell", players=len(users), move_days=1)
    save(invitation, {"clock_policy": policy, **tc})
    for u in users[1:]:
        lobby.join(invitation.pk, u)
    invitation.refresh_from_db()
    return invitation.match


def _move(match, user):
    match.refresh_from_db()
    seat = match.seats.get(user=user).seat
    action = match_services.plugin_for(match).engine.legal_actions(match.state, seat)[0]
    match_services.submit_action(match.pk, user, action, match.version)


def _to_move(match):
    match.refresh_from_db()
    return match.seats.select_related("user").get(seat=match.to_move[0]) if match.to_move else None


def _kinds(user):
    return list(Notification.objects.filter(user=user).order_by("id").values_list("kind", flat=True))


@pytest.mark.parametrize("policy", ["bot", "forfeit"])
def test_stalled_player_reminded_twice_then_policy_then_others_continue(policy, make_user, monkeypatch,
                                                                        celery_worker):
    monkeypatch.setattr(clock_conf, "VACATION_DAYS_PER_YEAR", 1)  # one day to use before the timeout
    users = [make_user(n) for n in ("anna", "bert", "cora")]
    match = _start(users, policy)
    sleeper = _to_move(match)
    clock = SeatClock.objects.get(seat=sleeper)
    t0 = clock.started_at
    assert clock.next_check_at == t0 + DAY / 2  # the first reminder is due at 50 %

    assert clocks.sweep(now=t0 + DAY * 0.4) == {"reminders": 0, "vacations": 0, "timeouts": 0}
    assert clocks.sweep(now=t0 + DAY * 0.5 + timedelta(minutes=1))["reminders"] == 1
    assert clocks.sweep(now=t0 + DAY * 0.6)["reminders"] == 0  # not again
    assert clocks.sweep(now=t0 + DAY * 0.9 + timedelta(minutes=1))["reminders"] == 1
    # At the deadline the allowance's last day is taken instead of the timeout.
    assert clocks.sweep(now=t0 + DAY + timedelta(minutes=1)) == {"reminders": 0, "vacations": 1, "timeouts": 0}
    vacation = Vacation.objects.get(user=sleeper.user)
    assert vacation.auto and vacation.start == t0 + DAY
    assert clocks.sweep(now=t0 + DAY * 1.5)["timeouts"] == 0
    assert clocks.sweep(now=t0 + DAY * 2 + timedelta(minutes=1))["timeouts"] == 1
    assert _kinds(sleeper.user).count("reminder") == 2
    assert "vacation_auto" in _kinds(sleeper.user) and "timeout" in _kinds(sleeper.user)

    clock.refresh_from_db()
    assert clock.timed_out and clock.started_at is None
    assert PlayerRecord.objects.get(user=sleeper.user).timeouts == 1
    sleeper.refresh_from_db()
    assert sleeper.bot and sleeper.resigned == (policy == "forfeit")

    # The bot moves for the seat (a Celery task on the real services); the others play on.
    def human_or_over():  # (truthy, seat): a human to move, or None once the match is over
        seat = _to_move(match)
        return ("over", None) if seat is None else (("human", seat) if not seat.bot else None)

    while True:
        _, seat = wait_for(human_or_over)
        if seat is None:
            break
        _move(match, seat.user)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    placement = next(p for p in match.outcome["placements"] if p["seat"] == sleeper.seat)
    assert placement["forfeit"] == "timeout"
    if policy == "forfeit":
        assert placement["place"] == 3 and placement["resigned"]
    # Everyone's record counts the game (after commit, maybe in the worker); one timeout.
    wait_for(lambda: PlayerRecord.objects.filter(user__in=users, games=1).count() == 3)
    assert sum(PlayerRecord.objects.values_list("timeouts", flat=True)) == 1
    wait_for(lambda: Notification.objects.filter(kind="match_finished").count() == 3)


def test_vacation_stops_the_clock_and_opponents_see_it(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = _start([anna, bert], "forfeit")
    sleeper = _to_move(match)
    other = bert if sleeper.user == anna else anna
    clock = SeatClock.objects.get(seat=sleeper)
    t0 = clock.started_at
    clocks.take_vacation(sleeper.user, t0 + timedelta(hours=1), 3, now=t0)
    clock.refresh_from_db()
    assert clock.next_check_at == t0 + DAY / 2 + 3 * DAY  # the reminder moves by the vacation
    assert clocks.sweep(now=t0 + DAY * 2)["reminders"] == 0
    client = Client()
    client.force_login(other)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="clocks"' in page
    if clocks.on_vacation([sleeper.user_id]):  # the vacation starts an hour after the match
        assert "on vacation until" in page
    with pytest.raises(clocks.VacationError):
        clocks.take_vacation(sleeper.user, t0 + timedelta(days=2), 1, now=t0)  # overlaps
    with pytest.raises(clocks.VacationError):
        clocks.take_vacation(sleeper.user, t0 + timedelta(days=30), 100, now=t0)  # more than the allowance


def test_opponents_see_a_current_vacation(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = _start([anna, bert], "forfeit")
    from django.utils import timezone

    clocks.take_vacation(anna, timezone.now(), 2)
    client = Client()
    client.force_login(bert)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "on vacation until" in page


def test_time_bank_with_increment(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = _start([anna, bert], "bot", clock_mode="bank", clock_bank_hours=10, clock_increment_hours=2)
    mover = _to_move(match)
    clock = SeatClock.objects.get(seat=mover)
    assert clock.bank_seconds == 10 * 3600
    tc = TimeControl.objects.get(match=match)
    assert tc.mode == "bank"
    # Move after 3 hours: 10 - 3 + 2 = 9 hours in the bank.
    match.refresh_from_db()
    action = match_services.plugin_for(match).engine.legal_actions(match.state, mover.seat)[0]
    clock.started_at = clock.started_at - timedelta(hours=3)
    clock.save(update_fields=["started_at"])
    match_services.submit_action(match.pk, mover.user, action, match.version)
    clock.refresh_from_db()
    assert abs(clock.bank_seconds - 9 * 3600) < 5
    assert clock.started_at is None and clock.moves == 1
    record = PlayerRecord.objects.get(user=mover.user)
    assert record.moves == 1 and abs(record.usual_seconds - 3 * 3600) < 5


def test_invitation_requires_a_record(make_user):
    host, late = make_user("host"), make_user("late")
    PlayerRecord.objects.create(user=late, games=4, timeouts=2)
    client = Client()
    client.force_login(host)
    r = client.post("/api/invitations/", {"game": "kartenduell", "players": 2, "move_days": 2,
                                          "clock_max_timeout_percent": 10, "clock_weekends_off": True},
                    content_type="application/json")
    assert r.status_code == 201, r.content
    tc = TimeControl.objects.get(invitation_id=r.json()["id"])
    assert tc.max_timeout_rate == 0.1 and tc.weekends_off
    client.force_login(late)
    joined = client.post(f"/api/invitations/{r.json()['id']}/join/", {}, content_type="application/json")
    assert joined.status_code == 403
    assert "at most 10%" in joined.json()["detail"]
    bad = client.post("/api/invitations/", {"game": "kartenduell", "players": 2, "clock_mode": "hourglass"},
                      content_type="application/json")
    assert bad.status_code == 400


def test_invitation_form_has_time_control(make_user):
    host = make_user("host")
    client = Client()
    client.force_login(host)
    page = client.get("/invitations/new/kartenduell/").content.decode()
    assert 'name="clock_mode"' in page and 'name="clock_policy"' in page
    r = client.post("/invitations/new/kartenduell/", {"players": 2, "move_days": 5, "clock_mode": "days",
                                                      "clock_policy": "forfeit", "clock_weekends_off": "on",
                                                      "bots": 1, "opt_short": "", "comment": ""})
    assert r.status_code == 302
    match = Match.objects.get()
    tc = TimeControl.objects.get(match=match)  # copied from the invitation when the match started
    assert tc.policy == "forfeit" and tc.weekends_off and tc.move_days == 5


def test_player_record_page(make_user):
    anna = make_user("anna")
    PlayerRecord.objects.create(user=anna, games=10, timeouts=1, moves=3, recent=[3600, 7200, 36000])
    page = Client().get("/players/anna/record/").content.decode()
    assert "10" in page and 'id="timeouts">1<' in page and "2 h 0 min" in page
