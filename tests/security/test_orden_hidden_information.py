"""The hidden-information scanner's Der Orden companion: leaks through *transitions*.

``test_hidden_information`` redraws secrets in a stored state; what an action reveals while it
happens (who a reaction window asks, what a logged action names, what an undo leaves behind)
is not in the state. Here the same moves are played from two positions that differ only in a
secret (or with two different secret choices), and everything the other seats and a spectator
receive — every match route, the API log and export, the websocket frames — must be the same,
after the move and again after taking it back.
"""
from __future__ import annotations

import copy
import difflib
import re
import sys
from pathlib import Path

import pytest
from django.utils import timezone

from clocks.models import SeatClock, TimeControl
from games.orden.engine import ENGINE
from matches.models import LogEntry, Match, Seat
from matches.services import start_match, submit_action, undo
from tests.security.test_hidden_information import Viewers

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "orden"))
from orden_scenario import Scenario, no_of  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)
AT = timezone.now()
POSITION = {}
# the clocks panel and the players strip's clock: wall-clock deadlines and earlier runs' records
CLOCKS = re.compile(r'<span class="(?:deadline|strip-clock)"[^>]*>[^<]*</span>|<small class="record">[^<]*</small>'
                    r'|<p>Deadline: [^<]*</p>|<p>Frist: [^<]*</p>'
                    r'|(?<=id="last-move")[^>]*>\s*<h2>[^<]*<small>[^<]*</small>'  # "Last move 10 minutes ago"
                    r'|(?<=<h2 id="last-move-title">)[^<]*<small>[^<]*</small>')


def actor():
    return {"path": "schwert", "rank": "IV", "hand": ["Mächtige Statur", "Mächtige Statur", "Kraft", "Demut"],
            "deck": ["Demut"] * 10}


def start(django_user_model, n):
    users = [django_user_model.objects.create_user(f"orden{i}", password="x") for i in range(n)]
    match = start_match(game="orden", entrants=[{"user": u, "bot": "", "choices": {}} for u in users],
                        options={}, public=True, seed=11)
    return match, Viewers(match, users)


@pytest.fixture
def position(monkeypatch):
    """The engine's set-up returns the scenario's position, so undo and replays (which rebuild
    from the set-up and the log) start from it too."""
    holder = POSITION
    holder.clear()
    real = ENGINE.setup
    monkeypatch.setattr(ENGINE, "setup",
                        lambda *a, **k: copy.deepcopy(holder["state"]) if holder else real(*a, **k))
    yield holder
    holder.clear()


def put(match, state, version):
    """Set the match to ``state`` at ``version``, the log cut back to it."""
    POSITION["state"] = state
    LogEntry.objects.filter(match=match, seq__gt=version).delete()
    to_move = ENGINE.to_move(state)
    Match.objects.filter(pk=match.pk).update(state=state, version=version, to_move=to_move)
    Seat.objects.filter(match=match).update(to_move=False, to_move_since=None)
    Seat.objects.filter(match=match, seat__in=to_move).update(to_move=True, to_move_since=AT)
    # the clocks follow each version once: let them follow the repeated versions of a second run
    TimeControl.objects.filter(match=match).update(version=version)
    SeatClock.objects.filter(match=match).update(started_at=None, moves=0)
    SeatClock.objects.filter(match=match, seat__seat__in=to_move).update(started_at=AT)
    match.refresh_from_db()


def seen(match, viewers, skip):
    # timestamps are the only thing allowed to differ between the two runs
    LogEntry.objects.filter(match=match).update(at=AT)
    Seat.objects.filter(match=match, to_move=True).update(to_move_since=AT)
    viewers.everything()  # let side effects of viewing (notifications read) settle
    got = viewers.everything()
    for v in got:  # the clocks panel: wall-clock deadlines and the move-time record of earlier runs
        got[v]["http"] = {k: (code, CLOCKS.sub("<clock>", body)) for k, (code, body) in got[v]["http"].items()}
    return {v: got[v] for v in got if v != skip}


def run(match, viewers, state, version, moves, skip):
    """Play ``moves`` ((seat, action) or (seat, "undo")) from ``state``; what the viewers other
    than ``skip`` receive after each move."""
    put(match, state, version)
    out = []
    for seat, action in moves:
        match.refresh_from_db()
        if action == "undo":
            undo(match.pk, viewers.seat_user[seat], match.version)
        else:
            submit_action(match.pk, viewers.seat_user[seat], action, match.version)
        match.refresh_from_db()
        out.append(seen(match, viewers, skip))
    return out


def assert_same(a, b, what):
    for step, (x, y) in enumerate(zip(a, b)):
        for viewer in x:
            for channel in ("http", "ws"):
                before, after = x[viewer][channel], y[viewer][channel]
                if before == after:
                    continue
                if channel == "ws":
                    pytest.fail(f"{what}, move {step}: seat {viewer}'s websocket frames differ")
                keys = [k for k in before if before[k] != after.get(k)]
                shown = "\n".join(list(difflib.unified_diff(before[keys[0]][1].splitlines(),
                                                            after[keys[0]][1].splitlines(), lineterm=""))[:40])
                pytest.fail(f"{what}, move {step}: seat {viewer} receives something different ({keys})\n{shown}")


def test_announcing_an_aktion_and_taking_it_back_probes_no_hand(django_user_model, position):
    match, viewers = start(django_user_model, 3)
    version = match.version
    # seat 1 holds Einspruch (a legal reaction) or two plain cards: the same hand size
    holds = Scenario([actor(), {"rank": "IV", "hand": ["Einspruch", "Treueschwur"], "deck": ["Demut"] * 5},
                      {"hand": ["Demut"], "deck": ["Demut"] * 5}])
    plain = Scenario([actor(), {"rank": "IV", "hand": ["Demut", "Demut"], "deck": ["Demut"] * 5},
                      {"hand": ["Demut"], "deck": ["Demut"] * 5}])
    knappe = next(i for i in holds.state["p"][0]["pfad"] if holds.state["ci"][i] == no_of("Knappe"))
    moves = [(0, {"type": "activate", "card": knappe, "ability": 1}), (0, "undo"),
             (0, {"type": "activate", "card": knappe, "ability": 1})]
    a = run(match, viewers, holds.state, version, moves, skip=1)
    b = run(match, viewers, plain.state, version, moves, skip=1)
    assert_same(a, b, "reaction window")
    match.refresh_from_db()
    assert match.to_move == [1]  # asked although it may hold nothing


def test_a_payment_pick_taken_back_leaves_no_trace_of_the_card(django_user_model, position):
    match, viewers = start(django_user_model, 2)
    version = match.version
    sc = Scenario([actor(), {"hand": ["Demut"], "deck": ["Demut"] * 5}])
    sc.do(0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1})
    while sc.state["phase"] == "react":
        sc.decline(1)
    assert sc.state["phase"] == "pay"
    kraft, statur = sc._pick(0, "Kraft"), sc._pick(0, "Mächtige Statur")
    a = run(match, viewers, sc.state, version, [(0, kraft), (0, "undo")], skip=0)
    b = run(match, viewers, sc.state, version, [(0, statur), (0, "undo")], skip=0)
    assert_same(a, b, "payment pick")
