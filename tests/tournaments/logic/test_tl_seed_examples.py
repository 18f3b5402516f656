"""The worked examples and tables of the seed documents, reproduced exactly."""
from fractions import Fraction

import pytest

from games.orden import PLUGIN as ORDEN
from tournaments.logic import (EISERNER_THRON, MITTELERDE, Match, Round, advance,
                               after_cut, cut, from_start, match, mittelerde_kind, pair_swiss,
                               league_scheme, standings, structure_for)

SVEN, ANNE, GREGOR, KAI = 1, 2, 3, 4


def sven_rounds():
    """After three rounds: Sven, Anne, Gregor 15 points; Kai, 5, 6, 7 ten points."""
    r1 = Round(1, (match(1, 9, 1), match(2, 10, 2), match(3, 11, 3), match(4, 12, 4),
                   match(5, 13, 5), match(6, 14, 6), match(7, 15, 7), match(8, 16, 8)))
    r2 = Round(2, (match(1, 4, 1), match(2, 5, 2), match(3, 6, 3), match(7, 8, 7),
                   match(9, 10, 9), match(11, 12, 11), match(13, 14, 13), match(15, 16, 15)))
    r3 = Round(3, (match(1, 7, 1), match(2, 8, 2), match(3, 9, 3), match(4, 11, 4),
                   match(5, 13, 5), match(6, 15, 6), match(10, 12, 10), match(14, 16, 14)))
    return [r1, r2, r3]


def test_sven_anne_gregor_kai_pair_down():
    rounds = sven_rounds()
    rows = {r.user: r.points for r in standings(range(1, 17), rounds)}
    assert rows[SVEN] == rows[ANNE] == rows[GREGOR] == 15
    assert {p for p, v in rows.items() if v == 10} == {4, 5, 6, 7}
    seen_example = False
    floaters, partners = set(), set()
    for seed in range(200):
        p = pair_swiss(range(1, 17), rounds, seed=seed)
        top = [t for t in p.tables if set(t) & {SVEN, ANNE, GREGOR}]
        inside = [t for t in top if set(t) <= {SVEN, ANNE, GREGOR}]
        assert len(inside) == 1  # two of the three meet
        down = [t for t in top if t not in inside][0]
        floater = (set(down) & {SVEN, ANNE, GREGOR}).pop()
        partner = (set(down) - {floater}).pop()
        assert rows[partner] == 10  # paired with a random player of the next group
        floaters.add(floater)
        partners.add((floater, partner))
        # Tables 1 and 2 are the top group and its pair-down.
        assert set(p.tables[0]) | set(p.tables[1]) == {SVEN, ANNE, GREGOR, partner}
        if set(inside[0]) == {SVEN, ANNE} and set(down) == {GREGOR, KAI}:
            seen_example = True
        assert p.rematches == 0
    assert floaters == {SVEN, ANNE, GREGOR}
    # Each floater meets every ten-point player it has not met yet (Sven met 4 and 7, Anne
    # met 5, Gregor met 6), and none it has.
    assert partners == {(1, 5), (1, 6), (2, 4), (2, 6), (2, 7), (3, 4), (3, 5), (3, 7)}
    assert seen_example


def test_stefan_drops_after_cut_eva_moves_up_as_eighth():
    names = ["A1", "A2", "A3", "A4", "A5", "Stefan", "A7", "A8", "Eva", "A10"]
    ids = {n: i for i, n in enumerate(names, 1)}
    ranking = [ids[n] for n in names]
    seeds = cut(ranking, 8, dropped={ids["Stefan"]})
    assert [names[s - 1] for s in seeds] == ["A1", "A2", "A3", "A4", "A5", "A7", "A8", "Eva"]
    ko = after_cut(seeds)
    got = [(s.number, tuple(names[p - 1] for p in s.players)) for s in ko.slots]
    assert got == [(1, ("A1", "Eva")), (2, ("A2", "A8")), (3, ("A3", "A7")), (4, ("A4", "A5"))]


def test_cut_skips_dropouts_below_and_fills_in_order():
    assert cut([1, 2, 3, 4, 5, 6], 4, dropped={2, 5}) == [1, 3, 4, 6]
    assert cut([1, 2, 3, 4], 4) == [1, 2, 3, 4]


def test_bracket_order_after_cut():
    ko = after_cut(list(range(1, 9)))
    assert [s.players for s in ko.slots] == [(1, 8), (2, 7), (3, 6), (4, 5)]
    r2 = advance(ko, {1: 1, 2: 7, 3: 3, 4: 5})
    # Winner of #1 meets the winner of the last match; #2 the second-to-last.
    assert [(s.number, s.players) for s in r2.slots] == [(1, (1, 5)), (2, (7, 3))]
    r3 = advance(r2, {1: 5, 2: 7})
    assert [(s.number, s.players) for s in r3.slots] == [(1, (5, 7))]
    assert advance(r3, {1: 7}) is None
    api = r2.to_api()
    assert api["stage"] == "knockout" and [p["match"] for p in api["pairings"]] == [1, 2]


def test_top_seeds_only_meet_late():
    ko = after_cut(list(range(1, 17)))
    winners = {s.number: min(s.players) for s in ko.slots}  # better seed always wins
    rounds = [ko]
    while True:
        nxt = advance(rounds[-1], winners)
        if nxt is None:
            break
        rounds.append(nxt)
        winners = {s.number: min(s.players) for s in nxt.slots}
    assert [s.players for s in rounds[-1].slots] == [(1, 2)]
    assert sorted(p for s in rounds[-2].slots for p in s.players) == [1, 2, 3, 4]


def test_knockout_from_start_random_byes_to_power_of_two():
    for n in range(2, 40):
        ko = from_start(list(range(n)), seed=n)
        size = 1
        while size < n:
            size *= 2
        byes = [s for s in ko.slots if s.is_bye]
        assert len(byes) == size - n
        assert [s.number for s in ko.slots] == list(range(1, size // 2 + 1))
        assert sorted(p for s in ko.slots for p in s.players) == list(range(n))
    # random: different seeds give different byes
    assert len({tuple(s.players for s in from_start(list(range(6)), seed=k).slots) for k in range(20)}) > 5


def test_drop_mid_knockout_gives_bye():
    ko = after_cut([1, 2, 3, 4, 5, 6, 7, 8])
    # 5 won #4 then drops between rounds: their next opponent (winner of #1) gets a bye.
    r2 = advance(ko, {1: 1, 2: 2, 3: 3, 4: 5}, dropped={5})
    assert [s.players for s in r2.slots] == [(1,), (2, 3)]
    assert r2.to_api()["byes"] == [1]
    r3 = advance(r2, {2: 3})
    assert [s.players for s in r3.slots] == [(1, 3)]


def test_structure_tables():
    assert structure_for("basis", 8) == (3, None) or structure_for("basis", 8).rounds == 3
    cases = {("basis", 4): (3, None), ("basis", 16): (4, None), ("basis", 17): (4, 4),
             ("basis", 40): (5, 4), ("basis", 41): (5, 8), ("basis", 44): (5, 8), ("basis", 45): (6, 8),
             ("basis", 76): (6, 8), ("basis", 77): (6, 16), ("basis", 148): (6, 16), ("basis", 149): (7, 16),
             ("basis", 5000): (7, 16),
             ("fortgeschritten", 9): (4, 4), ("fortgeschritten", 12): (4, 4), ("fortgeschritten", 13): (4, 8),
             ("fortgeschritten", 24): (4, 8), ("fortgeschritten", 25): (5, 8), ("fortgeschritten", 76): (6, 8),
             ("fortgeschritten", 77): (6, 16), ("fortgeschritten", 149): (6, 32), ("fortgeschritten", 288): (6, 32),
             ("fortgeschritten", 289): (7, 32), ("fortgeschritten", 512): (7, 32), ("fortgeschritten", 513): (8, 32),
             ("mittelerde", 2): (1, None), ("mittelerde", 3): (2, None), ("mittelerde", 4): (2, None),
             ("mittelerde", 5): (3, None), ("mittelerde", 8): (3, None), ("mittelerde", 9): (4, None),
             ("mittelerde", 32): (5, None), ("mittelerde", 33): (6, None), ("mittelerde", 128): (7, None),
             ("mittelerde", 129): (8, None)}
    for (name, n), (r, c) in cases.items():
        s = structure_for(name, n)
        assert (s.rounds, s.cut) == (r, c), (name, n)
    assert structure_for("custom", 10, rounds=3, cut=4) == type(s)(3, 4)
    for bad in (("basis", 3), ("fortgeschritten", 8), ("mittelerde", 1)):
        with pytest.raises(ValueError):
            structure_for(*bad)


def test_eiserner_thron_points():
    m = Match((1, 2), (1, 2), "win")
    assert EISERNER_THRON.points(m) == {1: 5, 2: 0}
    assert EISERNER_THRON.points(Match((1, 2), (2, 1), "modified_win")) == {2: 4, 1: 0}
    assert [EISERNER_THRON.bye(r) for r in (1, 2, 7)] == [5, 5, 5]
    rows = {r.user: r for r in standings([1, 2, 3], [Round(1, (m,), (3,))])}
    assert (rows[3].points, rows[3].wins) == (5, 1)  # a bye is a win


def test_mittelerde_points_and_byes():
    assert [MITTELERDE.bye(r) for r in (1, 2, 3, 4, 5, 9)] == [6, 5, 4, 3, 3, 3]
    assert MITTELERDE.points(Match((1, 2), (2, 1), "council")) == {2: Fraction(7, 2), 1: Fraction(5, 2)}
    assert MITTELERDE.points(Match((1, 2), (1, 2), "draw")) == {1: 3, 2: 3}
    assert MITTELERDE.points(Match((1, 2), (1, 2), "win_1_5")) == {1: 5, 2: 1}
    assert mittelerde_kind(20, 10) == "win_2_1"
    assert mittelerde_kind(15, 10) == "win_1_5"
    assert mittelerde_kind(19, 10) == "win_1_5"
    assert mittelerde_kind(14, 10) == "win_close"
    assert mittelerde_kind(5, 0) == "win_2_1" and mittelerde_kind(5, -2) == "win_2_1"
    # "wins": games with 3.5 or more points; the council win counts, the 2.5 does not.
    r = Round(1, (Match((1, 2), (1, 2), "council"), Match((3, 4), (3, 4), "win_close")))
    rows = {x.user: x for x in standings([1, 2, 3, 4], [r], scheme="mittelerde", tiebreakers="mittelerde")}
    assert [rows[p].wins for p in (1, 2, 3, 4)] == [1, 0, 1, 0]


def test_der_orden_league_points():
    ranks = {1: "X", 2: "IX+", 3: "VI+", 4: "VII", 5: ""}
    m = Match((1, 2, 3, 4, 5), (1, 2, 4, 3, 5), "placement", ranks)
    assert league_scheme(ORDEN.league_rank_points()).points(m) == {1: 10, 2: Fraction(19, 2), 3: Fraction(13, 2), 4: 7, 5: 0}
