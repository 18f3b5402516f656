"""Der Orden's Ligawertung in the pure logic: the game calls "no rank" "0"."""
from fractions import Fraction

import pytest

from games.orden import PLUGIN
from tournaments.logic import Match, Round, league_scheme, standings

DER_ORDEN_LEAGUE = league_scheme(PLUGIN.league_rank_points())


def test_no_rank_scores_zero_points():
    m = Match((1, 2, 3), (1, 2, 3), ranks={1: "VI+", 2: "I", 3: "0"})
    assert DER_ORDEN_LEAGUE.points(m) == {1: Fraction(13, 2), 2: 1, 3: 0}


def test_league_standings_with_a_rankless_player():
    rounds = [Round(1, (Match((1, 2), (1, 2), ranks={1: "X", 2: "0"}),))]
    rows = standings([1, 2], rounds, scheme=DER_ORDEN_LEAGUE)
    assert [(r.user, r.points) for r in rows] == [(1, 10), (2, 0)]


def test_unknown_rank_is_a_clear_error():
    with pytest.raises(ValueError, match="rank"):
        DER_ORDEN_LEAGUE.points(Match((1, 2), (1, 2), ranks={1: "XI", 2: "I"}))


def test_league_table_knows_every_rank_of_the_game():
    from games.orden.schema import RANKS
    assert set(DER_ORDEN_LEAGUE.rank_points) == set(RANKS)
    assert all(DER_ORDEN_LEAGUE.rank_reached(k) == Fraction(str(v)) for k, v in RANKS.items())
