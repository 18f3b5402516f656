"""Hidden information: screens and schools are private until the end; the bag and the RNG
are never shown. Checked OpenSpiel-style: resample a seat's secrets, every other view stays."""
import json

import pytest

from games.alchemist import PLUGIN
from games.alchemist.engine import cube_total
from games.alchemist.testing import playout
from games.rng import Rng

E = PLUGIN.engine


def _check_resample(state, rng):
    n = state["n"]
    for seat in list(range(n)) + [None]:
        other = PLUGIN.resample_hidden(state, seat, rng)
        assert cube_total(other) == 160
        assert json.loads(json.dumps(other)) == other
        for viewer in [v for v in list(range(n)) + [None] if v != seat]:
            assert E.view(other, viewer) == E.view(state, viewer)
            assert E.legal_actions(other, viewer) == E.legal_actions(state, viewer)
        if seat is not None and not state["finished"]:
            assert sum(other["hands"][seat]) == sum(state["hands"][seat])
            if state["schools"]:
                assert len(set(other["school"])) == n


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("no_schools", [False, True])
def test_resample_keeps_every_other_view(n, no_schools):
    rng = Rng(n * 7 + no_schools)
    for seed in range(6):
        playout(n, seed, no_schools, on_step=lambda st, *_: _check_resample(st, rng))


def test_resample_actually_changes_secrets():
    s = E.setup(3, {}, 8, [])
    rng = Rng(1)
    seen_hands, seen_schools = set(), set()
    for _ in range(40):
        o = PLUGIN.resample_hidden(s, 0, rng)
        seen_hands.add(tuple(o["hands"][0]))
        seen_schools.add(o["school"][0])
    assert len(seen_hands) > 5 and len(seen_schools) == 3  # 5 cards minus the 2 others hold


def test_views_hide_other_screens_schools_bag_and_rng():
    s = E.setup(4, {}, 42, [])
    secret_keys = {"rng", "hands", "school", "bag_counts"}
    for viewer in [0, 1, 2, 3, None]:
        v = E.view(s, viewer)
        assert not secret_keys & set(v)
        assert isinstance(v["bag"], int)
        for row in v["seats"]:
            if row["seat"] == viewer:
                assert row["ingredients"] == dict(zip(["blue", "green", "grey", "orange", "yellow"],
                                                      s["hands"][viewer]))
                assert row["school"] is not None
            else:
                assert row["ingredients"] is None and row["school"] is None
            assert row["ingredient_count"] == 12
        assert str(s["rng"]) not in json.dumps(v)


def test_view_shape_matches_spec():
    s = E.setup(3, {}, 42, [])
    v = E.view(s, 0)
    assert set(v) == {"players", "seat", "round", "start_seat", "to_move", "schools", "bag",
                      "reserve", "removed", "value_tiles", "cauldrons", "seats", "finished", "final"}
    assert set(v["cauldrons"][0]) == {"index", "byproducts", "recipe", "value", "owner"}
    assert set(v["seats"][0]) == {"seat", "fame", "seals", "ingredient_count", "ingredients", "school"}
    assert v["cauldrons"][9]["byproducts"] == ["orange", "yellow"]
    assert json.loads(json.dumps(v)) == v


def test_drawn_cubes_only_in_a_private_event():
    s = E.setup(3, {}, 42, [])
    seat = s["turn"]
    step = E.apply(s, seat, {"type": "pass", "draw": True})
    private = [e for e in step.events if "to" in e]
    assert [e["type"] for e in private] == ["drawn"] and private[0]["to"] == [seat]
    for e in step.events:
        if "to" not in e:
            assert "ingredients" not in e


def test_everything_revealed_at_the_end():
    st = playout(3, 5)
    for viewer in [0, 1, 2, None]:
        v = E.view(st, viewer)
        assert all(r["ingredients"] is not None and r["school"] for r in v["seats"])
