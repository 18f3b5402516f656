"""The "loss" result kind: a match nobody started in time scores 0 for everyone, counts
as played (for SoS divisors), has no winner, and knocks both players out of a knockout."""
from fractions import Fraction

from tournaments.logic import LOSS, Match, Round, advance, after_cut, get_scheme, standings


def test_loss_scores_nothing_in_every_scheme():
    m = Match((1, 2), (1, 2), LOSS)
    for name in ("eiserner_thron", "mittelerde", "placement", "league"):
        assert get_scheme(name).points(m) == {1: Fraction(0), 2: Fraction(0)}, name
    assert m.winner is None


def test_loss_counts_as_a_round_without_a_win():
    rounds = [Round(1, (Match((1, 2), (1, 2), LOSS), Match((3, 4), (3, 4), "win")))]
    rows = {r.user: r for r in standings([1, 2, 3, 4], rounds)}
    assert (rows[1].points, rows[1].wins, rows[1].rounds) == (0, 0, 1)
    assert (rows[3].points, rows[3].wins) == (5, 1)


def test_a_double_loss_in_a_knockout_gives_the_next_opponent_a_bye():
    first = after_cut([1, 2, 3, 4])  # #1: 1 v 4, #2: 2 v 3
    final = advance(first, {1: None, 2: 2})
    assert [s.players for s in final.slots] == [(2,)]
