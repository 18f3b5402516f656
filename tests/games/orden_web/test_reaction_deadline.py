"""Der Orden over days: a player asked to react who does not answer within the invitation's
reaction deadline declines automatically (the clock sweep applies Plugin.timed_default)."""
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from orden_scenario import Scenario

from clocks import services as clocks
from matches import services
from matches.models import LogEntry, Match, Seat
from matches.presenters import log_lines, seat_names

pytestmark = pytest.mark.django_db


def knappe_waits_for_a_reaction(users, reaction_hours=24):
    """A 2-player match where seat 0 has announced Knappe's ascent and seat 1 (holding
    Einspruch) is asked whether to react."""
    sc = Scenario([
        {"path": "schwert", "rank": "IV", "hand": ["Mächtige Statur", "Mächtige Statur", "Kraft", "Demut"],
         "deck": ["Demut"] * 10},
        {"path": "hammer", "rank": "IV", "hand": ["Einspruch", "Treueschwur", "Treueschwur"], "deck": ["Demut"] * 10},
    ], options={"reaction_hours": reaction_hours})
    sc.do(0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1})
    assert sc.state["phase"] == "react" and sc.to_move() == [1]
    with transaction.atomic():
        match = services.start_match(game="orden", entrants=[{"user": u, "bot": "", "choices": {}} for u in users],
                                     options={"reaction_hours": reaction_hours}, seed=1)
    seat_of = {s.user_id: s.seat for s in match.seats.all()}
    assert sorted(seat_of.values()) == [0, 1]
    Match.objects.filter(pk=match.pk).update(state=sc.state, to_move=[1])
    asked_at = timezone.now()
    Seat.objects.filter(match=match, seat=1).update(to_move=True, to_move_since=asked_at)
    Seat.objects.filter(match=match, seat=0).update(to_move=False, to_move_since=None)
    match.refresh_from_db()
    return match, asked_at


def test_an_unanswered_reaction_is_declined_after_the_deadline_exactly_once(make_user):
    match, asked_at = knappe_waits_for_a_reaction([make_user("ritter"), make_user("schmied")])
    version = match.version
    assert services.apply_timed_defaults(now=asked_at + timedelta(hours=23, minutes=59)) == 0
    match.refresh_from_db()
    assert match.version == version and match.to_move == [1]

    swept = clocks.sweep(now=asked_at + timedelta(hours=24, minutes=1))
    assert swept.get("timed_defaults") == 1
    match.refresh_from_db()
    assert match.version == version + 1 and match.to_move == [0]  # the actor pays and ascends
    entry = LogEntry.objects.get(match=match, seq=match.version)
    assert entry.seat == 1 and entry.action == {"type": "decline"}
    assert [e["type"] for e in entry.events][:2] == ["deadline", "decline"]
    assert services.apply_timed_defaults(now=asked_at + timedelta(days=3)) == 0  # once only

    from games import registry
    lines = log_lines(registry.get("orden"), match, [entry], 0, "de", seat_names(list(match.seats.all())))
    text = " ".join(lines[0]["texts"])
    assert "Reaktionsfrist" in text and "reagiert nicht" in text


def test_an_answer_in_time_is_left_alone(make_user):
    u0, u1 = make_user("a"), make_user("b")
    match, asked_at = knappe_waits_for_a_reaction([u0, u1], reaction_hours=2)
    mover = match.seats.get(seat=1).user
    services.submit_action(match.pk, mover, {"type": "decline"}, match.version)
    match.refresh_from_db()
    version = match.version
    assert services.apply_timed_defaults(now=asked_at + timedelta(hours=5)) == 0
    match.refresh_from_db()
    assert match.version == version
