"""The rules' worked example: Abigail designs, Merlin copies."""
from games.alchemist import PLUGIN
from games.alchemist.engine import cube_total
from games.alchemist.testing import arrange

E = PLUGIN.engine
ABIGAIL, MERLIN = 0, 1
GREEN_YELLOW = 6  # the cauldron whose by-products are yellow and green


def test_abigail_and_merlin():
    s = E.setup(3, {}, 5, [])
    s = arrange(s, hands={ABIGAIL: {"blue": 3, "grey": 2, "orange": 1},
                          MERLIN: {"blue": 2, "grey": 2, "orange": 1, "green": 1}},
                turn=ABIGAIL, start=ABIGAIL)
    assert cube_total(s) == 160
    reserve0 = list(s["reserve"])
    assert E.view(s, None)["cauldrons"][GREEN_YELLOW]["byproducts"] == ["green", "yellow"]

    # Abigail: 2 blue, 2 grey, 1 orange, tile 9 -> 9 points, 1 yellow + 1 green
    design = {"type": "design", "cauldron": GREEN_YELLOW,
              "ingredients": {"blue": 2, "grey": 2, "orange": 1}, "value": 9}
    assert design in E.legal_actions(s, ABIGAIL)
    step = E.apply(s, ABIGAIL, design)
    a = step.state
    assert a["fame"][ABIGAIL] == 9
    assert a["hands"][ABIGAIL] == [1, 1, 0, 0, 1]  # 1 blue left + green + yellow
    assert a["reserve"][1] == reserve0[1] - 1 and a["reserve"][4] == reserve0[4] - 1
    assert a["cauldrons"][GREEN_YELLOW] == [[2, 0, 2, 1, 0], 9, ABIGAIL]
    assert 9 not in a["tiles"] and a["seals"][ABIGAIL] == 4
    assert step.reveals is False
    assert cube_total(a) == 160

    # Merlin copies: pays 2 blue 2 grey 1 orange, 1 grey to Abigail, 4 leave the game
    copy = {"type": "copy", "cauldron": GREEN_YELLOW, "tribute": "grey"}
    assert a["turn"] == MERLIN and copy in E.legal_actions(a, MERLIN)
    removed0 = list(a["removed"])
    step = E.apply(a, MERLIN, copy)
    m = step.state
    assert m["fame"][MERLIN] == 9
    assert m["hands"][MERLIN] == [0, 2, 0, 0, 1]  # his green + by-products green, yellow
    assert m["hands"][ABIGAIL] == [1, 1, 1, 0, 1]  # the grey tribute
    assert [m["removed"][i] - removed0[i] for i in range(5)] == [2, 0, 1, 1, 0]
    assert m["cauldrons"][GREEN_YELLOW] == a["cauldrons"][GREEN_YELLOW]  # cubes and tile stay
    assert m["reserve"][1] == reserve0[1] - 2 and m["reserve"][4] == reserve0[4] - 2
    assert step.reveals is False
    assert cube_total(m) == 160

    names = ["Abigail", "Merlin", "Morgana"]
    assert PLUGIN.describe(step.events[0], names, "de").startswith(
        "Merlin kopiert den Trank von Abigail: 9 Ruhmespunkte")
    assert PLUGIN.describe(step.events[0], names, "en").startswith(
        "Merlin copies Abigail's potion: 9 fame points")
