"""The rating maths against openskill's own test vectors (no database)."""
import pytest
from openskill.models import PlackettLuce

from ratings import skill

# tests/models/data/plackettluce.json of openskill.py (vivekjoshy/openskill.py), used by its
# tests/models/weng_lin/test_plackett_luce.py::test_rate: a 1-player team against a 2-player
# team, model mu=31.321989232514305, sigma=11.379964801443018.
MODEL = PlackettLuce(mu=31.321989232514305, sigma=11.379964801443018)
VECTORS = {
    "normal": (None, [[(36.48967347401391, 11.237778601372977)],
                      [(26.154304991014694, 11.17822477763209)] * 2]),
    "ranks": ([2, 1], [[(30.19454401757094, 11.237778601372977)],
                       [(32.44943444745767, 11.17822477763209)] * 2]),
    "ties": ([1, 2, 1], [[(33.21874815457553, 11.354896725884002)],
                         [(30.27713112192334, 11.291328826858104)] * 2,
                         [(30.470088421044046, 11.249240904583088)] * 3]),
}


@pytest.mark.parametrize("name", VECTORS)
def test_openskill_vectors(name):
    places, expected = VECTORS[name]
    sizes = [len(team) for team in expected]
    teams = [[(MODEL.mu, MODEL.sigma)] * n for n in sizes]
    result = skill.rate_teams(teams, places or list(range(1, len(sizes) + 1)), model=MODEL)
    for got_team, want_team in zip(result, expected):
        for (mu, sigma), (want_mu, want_sigma) in zip(got_team, want_team):
            assert mu == pytest.approx(want_mu, rel=1e-4)
            assert sigma == pytest.approx(want_sigma, rel=1e-4)


def test_four_player_reference_case():
    """Four new players finishing 1st..4th under the default model (mu 25, sigma 25/3).
    Reference values computed with openskill 6.2.0: PlackettLuce().rate([[r()] * 4 teams],
    ranks=[1, 2, 3, 4])."""
    new = skill.initial()
    assert new == (25.0, pytest.approx(25 / 3))
    after = skill.rate([new] * 4, [1, 2, 3, 4])
    assert [mu for mu, _ in after] == pytest.approx(
        [27.795252672501135, 26.55291815138952, 24.689416369722096, 20.962412806387245], rel=1e-9)
    assert [s for _, s in after] == pytest.approx(
        [8.263571791259416, 8.17961798837266, 8.084127880168786, 8.084127880168786], rel=1e-9)


def test_order_of_players_does_not_matter_only_places_do():
    a, b = skill.rate([(30.0, 4.0), (25.0, 8.0)], [2, 1])
    b2, a2 = skill.rate([(25.0, 8.0), (30.0, 4.0)], [1, 2])
    assert a == pytest.approx(a2) and b == pytest.approx(b2)
    assert b[0] > 25.0 and a[0] < 30.0  # the winner rises, the loser falls


def test_display_scale():
    assert skill.display(*skill.initial()) == pytest.approx(1000.0)
    assert skill.display(30.0, 2.0) == pytest.approx(1000 + 40 * (30 - 6))
