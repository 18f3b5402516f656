"""Orders keep their secrets (docs/security.md "What orders reveal"): no seat
can tell from the mover's own answer, the frames, the log, the work the request does or its
timing whether another seat's answer came from an order or a person. Two worlds from the same
seed: in one the waiting seat holds an order (a premove) that answers the mover's move, in the
other it holds none. With the site's delay (here 0.4-0.8 s) everything the mover and the
spectators receive from the move's request is the same in both worlds, the request does the same
number of queries, and the ordered answer comes only after the least delay, in its own step."""
from __future__ import annotations

import json
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import registry
from matches import live, orders as match_orders
from matches.models import LogEntry, Match
from matches.services import start_match

pytestmark = pytest.mark.django_db(transaction=True)
DELAY = (0.4, 0.8)


def _world(users, with_order: bool, monkeypatch):
    plugin = registry.get("kartenduell")
    match = start_match(game="kartenduell", entrants=[{"user": u, "bot": "", "choices": {}} for u in users],
                        options={}, public=True, seed=777)
    seat_user = {s.seat: s.user for s in match.seats.select_related("user")}
    mover = match.to_move[0]
    waiter = 1 - mover
    first = plugin.engine.legal_actions(match.state, mover)[0]
    reply = plugin.engine.legal_actions(plugin.engine.apply(match.state, mover, first).state, waiter)[0]
    if with_order:
        match_orders.put(match.pk, seat_user[waiter], [{"kind": "premove", "action": reply}])
    sent = []
    real = live._send_all
    monkeypatch.setattr(live, "_send_all", lambda messages: (sent.extend(messages), real(messages))[1])
    api = APIClient()
    api.force_authenticate(seat_user[mover])
    with CaptureQueriesContext(connection) as queries:
        answer = api.post(f"/api/matches/{match.pk}/actions/", {"action": first, "version": 0}, format="json")
    monkeypatch.setattr(live, "_send_all", real)
    assert answer.status_code == 200, answer.content
    frames = {}
    for group, message in sent:
        if group.endswith(f".seat.{waiter}") or group == live.user_group(seat_user[waiter].pk):
            continue  # the waiting seat's own channels
        frame = json.loads(message["text"])
        frame.pop("match", None)
        frames.setdefault(group.replace(f".{match.pk}.", ".M."), []).append(frame)
    body = {k: v for k, v in answer.json().items() if k not in ("id", "created_at", "updated_at")}
    log = [(e.seq, e.kind, e.seat) for e in LogEntry.objects.filter(match=match)]
    return match, body, frames, len(queries), log


def test_an_ordered_answer_cannot_be_told_from_a_person_s(django_user_model, monkeypatch, settings):
    settings.ORDER_ANSWER_DELAY = DELAY
    users = [django_user_model.objects.create_user(f"s{i}", password="x") for i in range(2)]
    plain, body_a, frames_a, queries_a, log_a = _world(users, False, monkeypatch)
    Match.objects.filter(pk=plain.pk).update(status=Match.Status.ABORTED)  # out of the next world's badges
    plain.seats.update(to_move=False)
    ordered, body_b, frames_b, queries_b, log_b = _world(users, True, monkeypatch)
    started = time.monotonic()
    # The mover's own answer: no version jump, the waiting seat still to move, the same view.
    assert body_a["version"] == body_b["version"] == 1
    assert body_a == body_b
    assert frames_a == frames_b  # the mover's and the spectators' frames
    assert queries_a == queries_b  # the same work in the request, whether or not orders wait
    assert log_a == log_b and [(seq, kind) for seq, kind, _seat in log_a] == [(1, "action")]
    # The order answers later, in its own step, after the least delay.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not LogEntry.objects.filter(match=ordered, seq=2).exists():
        time.sleep(0.05)
    answer = LogEntry.objects.filter(match=ordered, seq=2).first()
    assert answer is not None, "the ordered answer never came"
    first = LogEntry.objects.get(match=ordered, seq=1)
    assert (answer.at - first.at).total_seconds() >= DELAY[0] - 0.05
    assert time.monotonic() - started < DELAY[1] + 5
    assert not LogEntry.objects.filter(match=plain, seq=2).exists()


def test_a_lost_timer_is_answered_by_the_clock_sweep(django_user_model, settings):
    from datetime import timedelta

    from django.utils import timezone

    from matches.models import Seat

    settings.ORDER_ANSWER_DELAY = (3600, 3600)  # the timer would come in an hour: as if lost
    users = [django_user_model.objects.create_user(f"l{i}", password="x") for i in range(2)]
    plugin = registry.get("kartenduell")
    match = start_match(game="kartenduell", entrants=[{"user": u, "bot": "", "choices": {}} for u in users],
                        options={}, public=True, seed=777)
    mover = match.to_move[0]
    seat_user = {s.seat: s.user for s in match.seats.select_related("user")}
    first = plugin.engine.legal_actions(match.state, mover)[0]
    reply = plugin.engine.legal_actions(plugin.engine.apply(match.state, mover, first).state, 1 - mover)[0]
    match_orders.put(match.pk, seat_user[1 - mover], [{"kind": "premove", "action": reply}])
    from matches.services import submit_action

    submit_action(match.pk, seat_user[mover], first, 0)
    assert match_orders.answer_overdue() == 0  # not overdue yet
    Seat.objects.filter(match=match, seat=1 - mover).update(to_move_since=timezone.now() - timedelta(hours=2))
    assert match_orders.answer_overdue() == 1
    assert LogEntry.objects.filter(match=match).count() == 2
