"""Set-up: the seed's table per player count, 12 secret cubes, schools, start player."""
import json

import pytest

from games.alchemist import PLUGIN
from games.alchemist import rules as R
from games.alchemist.engine import cube_total
from games.base import BadOptions

E = PLUGIN.engine


def test_seed_setup_table_numbers():
    # Teilnehmende Adepten | Beutel | Vorrat | aus dem Spiel (per colour)
    assert R.SETUP_TABLE == {2: (6, 10, 16), 3: (10, 12, 10), 4: (12, 16, 4), 5: (14, 18, 0)}
    for bag, reserve, out in R.SETUP_TABLE.values():
        assert bag + reserve + out == 32


def test_seed_school_points_table():
    assert R.SCHOOL_POINTS == {2: (6, 0), 3: (10, 5, 0), 4: (12, 8, 4, 0), 5: (12, 9, 6, 3, 0)}


def test_components():
    assert R.COLOURS == ("blue", "green", "grey", "orange", "yellow")
    assert len(R.PAIRS) == 10 and len(set(R.PAIRS)) == 10
    assert R.PAIRS[6] == (1, 4)  # the worked example's cauldron: green + yellow
    assert R.VALUE_TILES == tuple(range(1, 11))
    assert R.HAND_SIZE == 12 and R.SEALS == 5
    # 25 well-shaped recipes per cauldron: 3 allowed colours, 0-2 each, 1-5 cubes
    assert all(len(r) == 25 for r in R.RECIPES)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_per_player_count(n):
    bag, reserve, out = R.SETUP_TABLE[n]
    for seed in range(20):
        s = E.setup(n, {"no_schools": False}, seed, [{}] * n)
        assert s["reserve"] == [reserve] * 5
        assert s["removed"] == [out] * 5
        assert [sum(h) for h in s["hands"]] == [12] * n
        # the 12 cubes come out of the bag
        assert sum(s["bag"]) == 5 * bag - 12 * n
        for i in range(5):
            assert s["bag"][i] + sum(h[i] for h in s["hands"]) == bag
        assert cube_total(s) == 160
        assert s["fame"] == [0] * n and s["seals"] == [5] * n
        assert s["tiles"] == list(range(1, 11))
        assert s["cauldrons"] == [None] * 10
        assert len(set(s["school"])) == n  # one school card per colour, distinct
        assert s["turn"] == s["start"] and 0 <= s["start"] < n
        assert s["round"] == 1 and not s["finished"]
        assert json.loads(json.dumps(s)) == s


def test_start_player_by_lot_and_determinism():
    starts = {E.setup(4, {}, seed, [])["start"] for seed in range(60)}
    assert starts == {0, 1, 2, 3}
    assert E.setup(3, {}, 99, []) == E.setup(3, {}, 99, [])
    assert E.setup(3, {}, 99, []) != E.setup(3, {}, 100, [])


def test_hands_vary_with_seed():
    hands = {json.dumps(E.setup(2, {}, seed, [])["hands"]) for seed in range(30)}
    assert len(hands) > 25


def test_no_schools_option():
    s = E.setup(3, {"no_schools": True}, 1, [])
    assert s["schools"] is False and s["school"] is None
    v = E.view(s, 0)
    assert v["schools"] is False
    assert all(seat["school"] is None for seat in v["seats"])


@pytest.mark.parametrize("bad", [1, 5, 0, True])
def test_player_count_limits(bad):
    with pytest.raises(BadOptions) as refused:
        E.setup(bad, {}, 1, [])
    assert refused.value.text("en") == "Alchemist is played by 2 to 4 players."
    assert refused.value.text("de") == "Alchemist wird von 2 bis 4 Spielern gespielt."


def test_option_refusals_carry_a_german_text():
    opt = PLUGIN.meta.options[0]
    with pytest.raises(BadOptions) as refused:
        opt.clean("maybe")
    assert refused.value.text("de-at") == "Die Option „Ohne Schulen“ ('no_schools') muss true oder false sein."
    assert str(refused.value) == refused.value.text(None) == "Option 'no_schools' must be true or false."


def test_meta_and_option():
    m = PLUGIN.meta
    assert (m.slug, m.name_en, m.name_de, m.min_players, m.max_players) == (
        "alchemist", "Alchemist", "Alchemist", 2, 4)
    (opt,) = m.options
    assert (opt.key, opt.kind, opt.default, opt.label_en, opt.label_de) == (
        "no_schools", "bool", False, "Without schools", "Ohne Schulen")
    assert m.clean_options({}) == {"no_schools": False}
    assert m.clean_options({"no_schools": "true"}) == {"no_schools": True}


def test_package_exposes_plugin_and_template():
    # what games/registry.py looks for; not calling it keeps these tests free of other games
    from pathlib import Path

    import games.alchemist as pkg
    from games.base import Plugin
    assert isinstance(pkg.PLUGIN, Plugin)
    tpl = Path(pkg.__file__).parent / "templates" / PLUGIN.board_template
    assert tpl.is_file()
