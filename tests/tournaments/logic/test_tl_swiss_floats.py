"""Swiss floats: no rematch while a rematch-free pairing exists; then the
smallest sum of point differences, then the narrowest span, then the fewest floaters. Checked against an independent computation: for each span limit k, does a
perfect rematch-free matching exist that uses only pairs within k groups (blossom)?"""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rng import Rng
from tl_helpers import met_pairs, naive_points, perfect_matchings
from tournaments.logic import Round, pair_swiss
from tournaments.logic.matching import max_matching_size
from tournaments.logic.simulate import play


def groups_of(paired, pts):
    levels = sorted({pts.get(x, 0) for x in paired}, reverse=True)
    return {x: levels.index(pts.get(x, 0)) for x in paired}


def min_span(paired, met, gi):
    """The smallest k such that the players pair up without rematches and no pair spans more
    than k score groups; None if no rematch-free pairing exists at all."""
    need = len(paired) // 2
    for k in range(max(gi.values(), default=0) + 1):
        def ok(a, b, k=k):
            return abs(gi[a] - gi[b]) <= k and frozenset((a, b)) not in met
        if max_matching_size(paired, ok) == need:
            return k
    return None


def span(tables, gi):
    return max((abs(gi[a] - gi[b]) for a, b in tables), default=0)


def floaters(tables, gi):
    return sum(1 for a, b in tables if gi[a] != gi[b])


def check(p, rounds, scheme="eiserner_thron"):
    """After "no rematch while avoidable", the smallest Σ|Δpoints|, then the
    narrowest span, then the fewest floaters (brute force up to 10 players to pair)."""
    met = met_pairs(rounds)
    pts, _, _ = naive_points(rounds, _scheme(scheme))
    paired = [x for t in p.tables for x in t]
    gi = groups_of(paired, pts)
    k = min_span(paired, met, gi)
    if k is None:
        assert p.rematches > 0
        return
    assert p.rematches == 0

    def dpts(m):
        return sum(abs(pts.get(a, 0) - pts.get(b, 0)) for a, b in m)
    if len(paired) <= 10:
        best = min((dpts(m), span(m, gi), floaters(m, gi)) for m in perfect_matchings(sorted(paired))
                   if all(frozenset(e) not in met for e in m))
        assert (dpts(p.tables), span(p.tables, gi), floaters(p.tables, gi)) == best


def _scheme(name):
    from tournaments.logic import get_scheme
    return get_scheme(name)


MITTELERDE_KINDS = ["win_2_1", "win_1_5", "win_close", "council", "draw"]


def run(n, nrounds, seed, drops=0.0, scheme="eiserner_thron"):
    rng = Rng(seed)
    players = list(range(1, n + 1))
    rounds: list[Round] = []
    dropped = set()
    for _ in range(nrounds):
        for x in players:
            if x not in dropped and rng.random() < drops:
                dropped.add(x)
        if len(players) - len(dropped) < 2:
            break
        p = pair_swiss(players, rounds, seed=seed, dropped=dropped, scheme=scheme)
        check(p, rounds, scheme)
        rounds.append(play(p, rng, kinds=MITTELERDE_KINDS if scheme == "mittelerde" else None))


def test_nine_players_round_four_floats_to_the_next_group_only():
    # The report, found by a search over seeds: round 4 of this 9-player field
    # paired the top group's player with one two groups down ((8, 3): groups 0 and 2) although
    # a rematch-free pairing within neighbouring groups exists.
    run(9, 4, 1)


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(n=st.integers(2, 16), nrounds=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_exact_sized_fields_float_no_further_than_needed(n, nrounds, seed):
    run(n, nrounds, seed)


@SETTINGS
@given(n=st.integers(13, 60), nrounds=st.integers(3, 9), seed=st.integers(0, 2**32),
       drops=st.sampled_from([0.0, 0.05]))
def test_larger_fields_float_no_further_than_needed(n, nrounds, seed, drops):
    run(n, nrounds, seed, drops)


@SETTINGS
@given(n=st.integers(4, 40), nrounds=st.integers(2, 7), seed=st.integers(0, 2**32))
def test_mittelerde_fields_with_many_score_groups(n, nrounds, seed):
    # Mittelerde's results (6/0, 5/1, 4/2, 3.5/2.5, 3/3) make many small score groups.
    run(n, nrounds, seed, scheme="mittelerde")
