"""Matching, tie-breaker worked examples, pods, drops and re-entry, API shapes."""
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rng import Rng
from tl_helpers import perfect_matchings
from tournaments.logic import (Match, RejoinRefused, Round, match, missed_rounds, pair_pods,
                               pair_swiss, pod_sizes, rejoin, round_from_api, standings,
                               with_unpaired_losses)
from tournaments.logic.matching import max_matching, max_matching_size
from tournaments.logic.simulate import play


@settings(max_examples=150, deadline=None)
@given(n=st.integers(0, 9), edges=st.sets(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=30))
def test_blossom_matches_brute_force(n, edges):
    E = {frozenset(e) for e in edges if e[0] != e[1] and max(e) < n}
    allowed = lambda a, b: frozenset((a, b)) in E  # noqa: E731

    def best(nodes):
        if len(nodes) < 2:
            return 0
        a, rest = nodes[0], nodes[1:]
        out = best(rest)  # a unmatched
        for b in rest:
            if allowed(a, b):
                out = max(out, 1 + best([x for x in rest if x != b]))
        return out

    nodes = list(range(n))
    assert max_matching_size(nodes, allowed) == best(nodes)
    m = max_matching(nodes, allowed)
    assert len(m) == best(nodes) and all(allowed(a, b) for a, b in m)
    assert len({x for e in m for x in e}) == 2 * len(m)


def test_sos_esos_worked_example():
    # Round 1: A beats B, C beats D (modified). Round 2: A beats C, D beats B. E has a bye
    # in round 1 and an unpaired loss in round 2 (missed round after re-joining).
    A, B, C, D, E = 1, 2, 3, 4, 5
    rounds = [Round(1, (match(A, B, A), match(C, D, C, "modified_win")), (E,)),
              Round(2, (match(A, C, A), match(D, B, D)), (), (E,))]
    rows = {r.user: r for r in standings([A, B, C, D, E], rounds)}
    assert [rows[p].points for p in (A, B, C, D, E)] == [10, 0, 4, 5, 5]
    # points per round played: A 5, B 0, C 2, D 5/2, E 5/2
    assert rows[A].tiebreakers["sos"] == Fraction(0 + 2, 2)  # opponents B, C
    assert rows[B].tiebreakers["sos"] == Fraction(5 + Fraction(5, 2), 2)  # A, D
    assert rows[C].tiebreakers["sos"] == Fraction(Fraction(5, 2) + 5, 2)  # D, A
    assert rows[D].tiebreakers["sos"] == Fraction(2 + 0, 2)  # C, B
    assert rows[E].tiebreakers["sos"] == 0 and rows[E].tiebreakers["esos"] == 0
    sos = {p: rows[p].tiebreakers["sos"] for p in rows}
    assert rows[A].tiebreakers["esos"] == (sos[B] + sos[C]) / 2
    assert rows[D].tiebreakers["esos"] == (sos[C] + sos[B]) / 2
    # D and E tie on 5 points; D has the higher SoS.
    order = [r.user for r in standings([A, B, C, D, E], rounds)]
    assert order == [A, D, E, C, B]
    api = rows[A].to_api()
    assert api == {"rank": 1, "user": A, "points": 10, "wins": 2,
                   "tiebreakers": {"sos": 1, "esos": float((sos[B] + sos[C]) / 2)}, "dropped": False}


def test_random_tiebreak_is_stable_and_seeded():
    rounds = [Round(1, (match(1, 2, 1), match(3, 4, 3)))]
    a = [r.user for r in standings([1, 2, 3, 4], rounds, seed=1)]
    assert a == [r.user for r in standings([1, 2, 3, 4], rounds, seed=1)]
    orders = {tuple(r.user for r in standings([1, 2, 3, 4], rounds, seed=s)) for s in range(20)}
    assert len(orders) > 1  # 1 and 3 (and 2 and 4) are fully tied: random, by seed


def test_mittelerde_elimination():
    from tournaments.logic.tally import PlayerTally
    from tournaments.logic.tiebreakers import mittelerde_order
    A, B, C, D, X, Y = 1, 2, 3, 4, 90, 91
    t = {
        A: PlayerTally(points=Fraction(12), wins=3, beaten=[B], opponents=[B, X]),
        B: PlayerTally(points=Fraction(12), wins=3, beaten=[C], opponents=[C, Y]),
        C: PlayerTally(points=Fraction(12), wins=2, beaten=[A], opponents=[A]),
        D: PlayerTally(points=Fraction(12), wins=4, beaten=[], opponents=[]),
        X: PlayerTally(points=Fraction(8)),
        Y: PlayerTally(points=Fraction(11)),
    }
    # 1. head-to-head in {A,B,C,D}: A, B, C one win each, D none -> D out.
    # 2. wins among A, B, C: 3, 3, 2 -> C out.
    # 3. opponents' points: A 12+8=20, B 12+11=23 -> B first.
    # The eliminated {A, C, D} start over: head-to-head now C 1 (beat A), A 0, D 0 -> C;
    # then {A, D}: head-to-head 0, 0; wins A 3, D 4 -> D, then A.
    assert mittelerde_order([A, B, C, D], t, tie=lambda p: p) == [B, C, D, A]


def test_mittelerde_head_to_head_decides_first():
    # X and Y tied on points; X beat Y: X is ahead even with a weaker schedule.
    X, Y, P, Q = 1, 2, 3, 4
    rounds = [Round(1, (match(X, Y, X), match(P, Q, P))), Round(2, (match(X, P, P), match(Y, Q, Y)))]
    rows = standings([X, Y, P, Q], rounds, scheme="mittelerde", tiebreakers="mittelerde")
    order = [r.user for r in rows]
    assert order[0] == P
    assert order.index(X) < order.index(Y)
    assert rows[order.index(X)].tiebreakers == {"h2h": 1, "wins": 1, "opp_points": 6 + 12}


def test_pod_sizes():
    assert pod_sizes(5) == ([4], 1)
    assert pod_sizes(6) == ([3, 3], 0)
    assert pod_sizes(7) == ([4, 3], 0)
    assert pod_sizes(8) == ([4, 4], 0)
    assert pod_sizes(9) == ([3, 3, 3], 0)
    assert pod_sizes(2) == ([2], 0) and pod_sizes(1) == ([], 1)
    for n in range(6, 200):
        sizes, byes = pod_sizes(n)
        assert byes == 0 and sum(sizes) == n and all(3 <= s <= 4 for s in sizes)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 120), nrounds=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_pods_properties(n, nrounds, seed):
    rng = Rng(seed)
    rounds = []
    players = list(range(n))
    for r in range(nrounds):
        p = pair_pods(players, rounds, seed=seed)
        seated = sorted([x for t in p.tables for x in t] + p.byes)
        assert seated == players
        assert all(3 <= len(t) <= 4 for t in p.tables) or n < 3
        met = {frozenset(e) for rr in rounds for m in rr.matches for e in combinations(m.players, 2)}
        reps = sum(1 for t in p.tables for e in combinations(t, 2) if frozenset(e) in met)
        assert reps == p.rematches
        if n >= 16 * (r + 1):  # plenty of room: no repeated meeting
            assert reps == 0
        if r == 0:
            assert reps == 0
        rounds.append(play(p, rng))
    rows = standings(players, rounds, scheme="placement")
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)


def test_pods_follow_score_groups():
    # 8 players, round 2: the four best of round 1 (by placement points) share a pod when
    # they have not met -> here top pod of round 1 winners.
    rounds = [Round(1, (Match((1, 2, 3, 4), (1, 2, 3, 4), "placement"),
                        Match((5, 6, 7, 8), (5, 6, 7, 8), "placement")))]
    p = pair_pods(range(1, 9), rounds, seed=0)
    assert sorted(len(t) for t in p.tables) == [4, 4]
    # Nobody meets again: each pod mixes the two old pods, best players in the first pod.
    for t in p.tables:
        assert len(set(t) & {1, 2, 3, 4}) == 2
    assert set(p.tables[0]) == {1, 2, 5, 6}


def test_drop_rejoin_with_unpaired_losses_and_disqualified():
    rng = Rng(1)
    players = list(range(10))
    rounds = []
    p = pair_swiss(players, rounds, seed=1)
    rounds.append(play(p, rng))
    # Player 3 drops after round 1; not paired in rounds 2 and 3.
    for _ in range(2):
        p = pair_swiss(players, rounds, dropped={3}, seed=1)
        assert 3 not in [x for t in p.tables for x in t] + p.byes
        rounds.append(play(p, rng))
    assert missed_rounds(3, rounds) == [2, 3]
    losses = rejoin(3, rounds, dropped_in_stage="swiss", current_stage="swiss", since_round=1)
    assert losses == [2, 3]
    rounds = with_unpaired_losses(rounds, 3, losses)
    row = {r.user: r for r in standings(players, rounds)}[3]
    assert row.rounds == 3  # one played, two unpaired losses
    p = pair_swiss(players, rounds, seed=1)
    assert 3 in [x for t in p.tables for x in t] + p.byes
    with pytest.raises(RejoinRefused):
        rejoin(4, rounds, dropped_in_stage="swiss", current_stage="swiss", disqualified=True)
    with pytest.raises(RejoinRefused):
        rejoin(4, rounds, dropped_in_stage="swiss", current_stage="knockout")
    rows = standings(players, rounds, dropped={5}, disqualified={6})
    assert rows[-1].user == 6 and rows[-1].dropped
    assert {r.user: r.dropped for r in rows}[5] is True


def test_round_api_round_trip():
    p = pair_swiss(range(7), [], seed=9)
    api = p.to_api()
    assert api["stage"] == "swiss" and len(api["pairings"]) == 3 and len(api["byes"]) == 1
    assert all(set(x) == {"table", "match", "users", "result"} for x in api["pairings"])
    api["pairings"][0]["result"] = {"placements": api["pairings"][0]["users"][::-1], "modified": True}
    r = round_from_api(api)
    assert r.matches[0].kind == "modified_win" and r.matches[1].placements is None
    assert r.to_api()["pairings"][0]["result"]["modified"] is True


def test_all_rounds_unpaired_losses_keep_points_zero():
    rows = standings([1], [Round(1, (), (), (1,))])
    assert rows[0].points == 0 and rows[0].rounds == 1


def test_perfect_matchings_helper():
    assert len(list(perfect_matchings(range(6)))) == 15
