"""Design / copy / pass: every restriction, validated and listed by the same rules."""
import copy
import json

import pytest

from games.alchemist import PLUGIN
from games.alchemist.engine import cube_total
from games.alchemist.testing import arrange
from games.base import IllegalAction

E = PLUGIN.engine
RICH = {"blue": 2, "green": 2, "grey": 2, "orange": 2, "yellow": 2}


def base(n=3, **kw):
    s = E.setup(n, {}, 11, [])
    kw.setdefault("turn", 0)
    kw.setdefault("start", 0)
    return arrange(s, **kw)


def rejected(state, seat, action, fragment):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as exc:
        E.apply(state, seat, action)
    assert fragment in exc.value.reason, exc.value.reason
    assert exc.value.reason_de
    assert state == before
    assert action not in E.legal_actions(state, seat)
    return exc.value


def design(c, ing, v):
    return {"type": "design", "cauldron": c, "ingredients": ing, "value": v}


# -- design -------------------------------------------------------------------------------
def test_design_forbids_the_cauldrons_byproduct_colours():
    s = base(hands={0: RICH})
    rejected(s, 0, design(0, {"blue": 1}, 3), "by-products")      # cauldron 0 = blue/green
    rejected(s, 0, design(0, {"green": 1, "grey": 1}, 3), "by-products")
    assert design(0, {"grey": 1}, 3) in E.legal_actions(s, 0)


def test_design_at_most_two_of_a_colour():
    s = base(hands={0: {"grey": 3, "orange": 1}})
    rejected(s, 0, design(0, {"grey": 3}, 3), "at most twice")
    assert design(0, {"grey": 2}, 3) in E.legal_actions(s, 0)


def test_design_one_to_five_ingredients():
    s = base(hands={0: {"grey": 2, "orange": 2, "yellow": 2}})
    rejected(s, 0, design(0, {}, 3), "1 to 5")
    rejected(s, 0, design(0, {"grey": 0}, 3), "1 to 5")
    rejected(s, 0, design(0, {"grey": 2, "orange": 2, "yellow": 2}, 3), "1 to 5")
    assert design(0, {"grey": 2, "orange": 2, "yellow": 1}, 3) in E.legal_actions(s, 0)


def test_design_needs_the_ingredients():
    s = base(hands={0: {"grey": 1}})
    rejected(s, 0, design(0, {"grey": 2}, 3), "do not have")


def test_design_no_duplicate_recipe_anywhere_in_the_compendium():
    s = base(hands={0: RICH, 1: RICH})
    s = E.apply(s, 0, design(0, {"grey": 1, "orange": 1}, 3)).state  # blue/green cauldron
    # cauldron 4 (green/grey) forbids grey; cauldron 3 (blue/yellow) allows grey+orange
    rejected(s, 1, design(3, {"grey": 1, "orange": 1}, 4), "already in the compendium")
    assert design(3, {"grey": 2, "orange": 1}, 4) in E.legal_actions(s, 1)


def test_design_cauldron_must_be_empty():
    s = base(hands={0: RICH, 1: RICH})
    s = E.apply(s, 0, design(0, {"grey": 1}, 3)).state
    rejected(s, 1, design(0, {"orange": 1}, 4), "already holds")


def test_value_tile_free_choice_used_once_independent_of_size():
    s = base(hands={0: RICH, 1: RICH})
    assert design(0, {"grey": 1}, 10) in E.legal_actions(s, 0)  # 1 cube, tile 10
    s = E.apply(s, 0, design(0, {"grey": 1}, 10)).state
    assert s["fame"][0] == 10 and 10 not in s["tiles"]
    rejected(s, 1, design(1, {"orange": 2, "yellow": 2, "green": 1}, 10), "not available")
    assert E.view(s, None)["value_tiles"] == list(range(1, 10))


def test_no_seals_no_design():
    s = base(hands={0: RICH}, seals=[0, 5, 5])
    rejected(s, 0, design(0, {"grey": 1}, 3), "no seals")
    kinds = {a["type"] for a in E.legal_actions(s, 0)}
    assert "design" not in kinds and "pass" in kinds


def test_five_designs_use_up_the_seals():
    s = base(hands={0: RICH})
    for k, (c, ing) in enumerate([(0, {"grey": 1}), (1, {"green": 1}), (2, {"yellow": 1}),
                                  (3, {"orange": 1}), (4, {"blue": 1})]):
        s = arrange(s, turn=0)
        s = E.apply(s, 0, design(c, ing, k + 1)).state
    assert s["seals"][0] == 0
    s = arrange(s, turn=0)
    assert not [a for a in E.legal_actions(s, 0) if a["type"] == "design"]


def test_byproducts_only_while_the_reserve_has_them():
    s = base(hands={0: RICH}, reserve={"blue": 1, "green": 0, "grey": 3, "orange": 3, "yellow": 3})
    step = E.apply(s, 0, design(0, {"grey": 1}, 3))
    assert step.events[0]["byproducts"] == ["blue"]
    assert step.state["hands"][0][0] == 3 and step.state["hands"][0][1] == 2
    assert step.state["reserve"][:2] == [0, 0]
    s = arrange(s, reserve={"grey": 3, "orange": 3, "yellow": 3})
    step = E.apply(s, 0, design(0, {"grey": 1}, 3))
    assert step.events[0]["byproducts"] == []
    assert "Keine Nebenprodukte" in PLUGIN.describe(step.events[0], ["A", "B", "C"], "de")


def test_design_enumeration_counts():
    s = base(hands={0: RICH})
    legal = E.legal_actions(s, 0)
    designs = [a for a in legal if a["type"] == "design"]
    assert len(designs) == 10 * 25 * 10  # every cauldron x recipe x free tile
    assert len({json.dumps(a, sort_keys=True) for a in legal}) == len(legal)
    passes = [a for a in legal if a["type"] == "pass"]
    assert len(passes) == 6  # take any of 5 colours, or draw
    # one cube: 6 cauldrons allow it, recipe {grey: 1} only
    s = base(hands={0: {"grey": 1}})
    designs = [a for a in E.legal_actions(s, 0) if a["type"] == "design"]
    assert len(designs) == 6 * 10


# -- copy -----------------------------------------------------------------------------------
def _designed(n=3):
    s = base(n, hands={0: RICH, 1: RICH, 2: RICH} if n == 3 else {0: RICH, 1: RICH})
    return E.apply(s, 0, design(6, {"blue": 2, "grey": 1}, 7)).state


def test_copy_own_recipe_is_illegal():
    s = arrange(_designed(), turn=0)
    rejected(s, 0, {"type": "copy", "cauldron": 6, "tribute": "blue"}, "own recipe")


def test_copy_needs_recipe_and_ingredients_and_tribute_in_recipe():
    s = _designed()
    rejected(s, 1, {"type": "copy", "cauldron": 5, "tribute": "blue"}, "no recipe")
    rejected(s, 1, {"type": "copy", "cauldron": 6, "tribute": "orange"}, "tribute")
    poor = arrange(s, hands={1: {"blue": 1, "grey": 1}})
    rejected(poor, 1, {"type": "copy", "cauldron": 6, "tribute": "blue"}, "do not have")


def test_copy_tribute_choices_listed():
    s = _designed()
    copies = [a for a in E.legal_actions(s, 1) if a["type"] == "copy"]
    assert copies == [{"type": "copy", "cauldron": 6, "tribute": "blue"},
                      {"type": "copy", "cauldron": 6, "tribute": "grey"}]


def test_same_recipe_copied_again_by_same_player():
    s = _designed()
    s = E.apply(s, 1, {"type": "copy", "cauldron": 6, "tribute": "blue"}).state
    s = E.apply(s, 2, {"type": "pass", "take": "blue"}).state
    s = E.apply(s, 0, {"type": "pass", "take": "blue"}).state
    s = arrange(s, hands={1: RICH})
    step = E.apply(s, 1, {"type": "copy", "cauldron": 6, "tribute": "grey"})
    assert step.state["fame"][1] == 14
    assert cube_total(step.state) == 160


# -- pass -------------------------------------------------------------------------------------
def test_pass_take_one_from_reserve():
    s = base()
    step = E.apply(s, 0, {"type": "pass", "take": "yellow"})
    assert step.state["reserve"][4] == s["reserve"][4] - 1
    assert step.state["hands"][0][4] == s["hands"][0][4] + 1
    assert step.reveals is False
    assert step.events == [{"type": "pass_take", "seat": 0, "colour": "yellow"}]


def test_pass_take_exhausted_colour_rejected():
    s = base(reserve={"blue": 0, "green": 1, "grey": 1, "orange": 1, "yellow": 1})
    rejected(s, 0, {"type": "pass", "take": "blue"}, "no blue left")


def test_pass_draw_two_from_bag_private_event():
    s = base()
    step = E.apply(s, 0, {"type": "pass", "draw": True})
    assert sum(step.state["bag"]) == sum(s["bag"]) - 2
    assert sum(step.state["hands"][0]) == sum(s["hands"][0]) + 2
    assert step.reveals is True
    public, private = step.events
    assert public == {"type": "pass_draw", "seat": 0, "count": 2} and "to" not in public
    assert private["to"] == [0] and sum(private["ingredients"].values()) == 2
    assert step.state["rng"] != s["rng"]


def test_pass_draw_fewer_when_bag_low_and_not_when_empty():
    s = base(bag={"orange": 1})
    step = E.apply(s, 0, {"type": "pass", "draw": True})
    assert step.events[0]["count"] == 1 and step.state["hands"][0][3] == s["hands"][0][3] + 1
    s = base(bag={})
    rejected(s, 0, {"type": "pass", "draw": True}, "bag is empty")
    assert {"type": "pass", "draw": True} not in E.legal_actions(s, 0)


def test_bare_pass_only_when_reserve_and_bag_empty():
    s = base()
    rejected(s, 0, {"type": "pass"}, "take one ingredient")
    s = base(bag={}, reserve={}, hands={0: {}})
    assert E.legal_actions(s, 0) == [{"type": "pass"}]
    step = E.apply(s, 0, {"type": "pass"})
    assert step.events[0] == {"type": "pass_empty", "seat": 0}


def test_pass_always_legal_otherwise():
    s = base(hands={0: {}})
    assert {"type": "pass", "take": "blue"} in E.legal_actions(s, 0)


# -- two players, first round ---------------------------------------------------------------
def test_two_player_first_turns_must_design_worth_five():
    for seed in range(40):
        s = E.setup(2, {}, seed, [])
        for _ in range(2):
            seat = s["turn"]
            legal = E.legal_actions(s, seat)
            assert legal and all(a["type"] == "design" and a["value"] >= 5 for a in legal)
            assert {a["value"] for a in legal} <= set(range(5, 11))
            small = dict(legal[0], value=4)
            rejected(s, seat, small, "at least 5")
            rejected(s, seat, {"type": "pass", "take": "blue"}, "at least 5")
            s = E.apply(s, seat, legal[-1]).state
        assert s["round"] == 2
        kinds = {a["type"] for a in E.legal_actions(s, s["turn"])}
        assert "pass" in kinds
        assert any(a["type"] == "design" and a["value"] < 5 for a in E.legal_actions(s, s["turn"]))


def test_three_players_first_turn_free():
    s = E.setup(3, {}, 3, [])
    kinds = {a["type"] for a in E.legal_actions(s, s["turn"])}
    assert kinds == {"design", "pass"}


# -- general validation ------------------------------------------------------------------------
@pytest.mark.parametrize("action", [
    None, [], "pass", {}, {"type": "fly"}, {"type": "pass", "take": "purple"},
    {"type": "pass", "take": "blue", "draw": True}, {"type": "pass", "draw": False},
    {"type": "design", "cauldron": 10, "ingredients": {"grey": 1}, "value": 3},
    {"type": "design", "cauldron": "0", "ingredients": {"grey": 1}, "value": 3},
    {"type": "design", "cauldron": 0, "ingredients": {"grey": True}, "value": 3},
    {"type": "design", "cauldron": 0, "ingredients": {"grey": -1}, "value": 3},
    {"type": "design", "cauldron": 0, "ingredients": ["grey"], "value": 3},
    {"type": "design", "cauldron": 0, "ingredients": {"grey": 1}, "value": 11},
    {"type": "design", "cauldron": 0, "ingredients": {"grey": 1}, "value": 3, "x": 1},
    {"type": "copy", "cauldron": 0, "tribute": 2},
])
def test_malformed_actions_rejected(action):
    s = base(hands={0: RICH})
    before = copy.deepcopy(s)
    with pytest.raises(IllegalAction) as exc:
        E.apply(s, 0, action)
    assert exc.value.reason
    assert s == before


def test_wrong_seat_and_finished_game_rejected():
    s = base(hands={0: RICH})
    rejected(s, 1, {"type": "pass", "take": "blue"}, "not your turn")
    assert E.legal_actions(s, 1) == []
    done = arrange(s, finished=True, turn=None)
    rejected(done, 0, {"type": "pass", "take": "blue"}, "over")


def test_every_legal_action_applies_and_input_is_not_mutated():
    s = base(hands={0: {"grey": 2, "orange": 1, "yellow": 1}})
    frozen = json.dumps(s, sort_keys=True)
    for a in E.legal_actions(s, 0):
        st = E.apply(s, 0, a).state
        assert cube_total(st) == 160
    assert json.dumps(s, sort_keys=True) == frozen
