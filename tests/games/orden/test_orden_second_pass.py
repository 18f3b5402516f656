"""Der Orden's second pass: the data and rules defects, one scenario each (each
failed on the engine before its fix)."""
from orden_scenario import Scenario

from games.orden.catalog import cardset
from games.orden.engine import ENGINE
from games.orden.text import ability as ability_text

OPP = {"path": "hammer", "hand": ["Silberling"] * 7, "deck": ["Silberling"] * 10}


# -- „… darf in diesem Zug von dieser Karte (oder anderen gleichen Namens) nicht nochmal
#    ausgeführt werden“ ------------------------------------------------------------------------

def grossmeister_ascends():
    # seat 0 holds rank IX+ with 3 actions (Großmeister AKTIONEN+1, Mysterium der Flamme from
    # rank VII), owns 4x E and can pay the cheap ascent (1x E + 1x S) twice; seat 1 holds two
    # „Einspruch“ (prevent an ascent: remove it; seat 1's turn in this round is still to come)
    return Scenario([
        {"path": "buch", "rank": "IX+", "plus9": True, "auslage": ["Mysterium der Flamme", "Vision"],
         "hand": ["Erlösung", "Erlösung", "Demut"], "deck": ["Demut"] * 10},
        {"path": "schwert", "rank": "IV", "hand": ["Einspruch", "Einspruch", "Treueschwur", "Treueschwur"],
         "deck": ["Demut"] * 10},
    ])


def _ascents(sc, seat, text):
    gm = sc._find(seat, "Großmeister", ("pfad",))
    c = cardset().cards[sc.state["ci"][gm]]
    return [a for a in sc.legal(seat) if a["type"] == "activate" and a["card"] == gm
            and ability_text(c.abilities[a["ability"]], "de") == text]


def test_a_prevented_grossmeister_ascent_is_not_tried_again_through_a_copy_of_the_rule():
    sc = grossmeister_ascends()
    assert sc.limits(0)["actions"] == 3
    gm = cardset().by_name["Großmeister"][0]
    cheap = next(i for i, a in enumerate(gm.abilities)
                 if a.kind == "aktion" and a.conditions and a.verbs[0].kind == "ascend")
    text = ability_text(gm.abilities[cheap], "de")
    assert len(_ascents(sc, 0, text)) == 1  # the cheap ascent is offered once, not once per copy
    sc.auto_decline = False
    sc.activate(0, "Großmeister", cheap)
    sc.react(1, "Einspruch", 0)
    assert "prevented" in sc.event_types() and sc.rank(0) == "IX+"
    assert sc.state["t"]["acts"] == 1 and sc.state["t"]["acts"] < sc.limits(0)["actions"]
    assert _ascents(sc, 0, text) == []  # no other copy of the same Aktion this turn


def test_a_prevented_aktion_is_blocked_for_every_card_of_that_name():
    sc = Scenario([{"auslage": ["Eifer", "Waffenübung", "Waffenübung"], "deck": ["Demut"] * 10},
                   {"hand": ["Disputation"]}])
    sc.auto_decline = False
    first, second = sc.state["p"][0]["auslage"][1:]
    sc.do(0, {"type": "activate", "card": first, "ability": 0})
    sc.react(1, "Disputation", 0)  # version 4: the card alone (2x W besides in version 3)
    assert "prevented" in sc.event_types()
    assert {"type": "activate", "card": second, "ability": 0} not in sc.legal(0)


# -- „gilt diejenige zum Vorteil des Besitzers … (nicht 2, nicht 5)“ --------------------------

def _once(name):
    c = cardset().by_name[name][0]
    return next(i for i, a in enumerate(c.abilities) if a.once_per_turn)


def test_a_weaker_once_per_turn_effect_used_first_does_not_block_a_better_one():
    # Lehrer (rank V, Buch): draw 1 once per turn; Mächtige Statur: draw 2 once per turn from 4x K.
    # Lehrer's draw first, then Statur comes into play: it tops the draw up to 2, never 3.
    sc = Scenario([{"path": "buch", "rank": "V", "auslage": ["Kraft", "Kraft"], "hand": ["Mächtige Statur"],
                    "deck": ["Demut"] * 10}, OPP])
    assert sc.zone(0, "pfad")[0] == "Lehrer"
    sc.activate(0, "Lehrer", _once("Lehrer"))
    assert sc.hand_size(0) == 2
    sc.play(0, "Mächtige Statur")
    assert sc.usable(0, "Mächtige Statur", _once("Mächtige Statur"))
    sc.activate(0, "Mächtige Statur", _once("Mächtige Statur"))
    assert sc.hand_size(0) == 2  # 1 + 1 more: 2 cards drawn in all
    assert [e["n"] for e in sc.events if e["type"] == "draw"] == [1, 1]
    assert not sc.usable(0, "Mächtige Statur", _once("Mächtige Statur"))
    assert not sc.usable(0, "Lehrer", _once("Lehrer"))


def test_after_the_better_effect_a_weaker_or_equal_one_adds_nothing():
    sc = Scenario([{"path": "buch", "rank": "VI+", "plus6": True, "auslage": ["Kraft", "Kraft", "Mächtige Statur"],
                    "hand": ["Ordensburg"], "deck": ["Demut"] * 10}, OPP])
    sc.activate(0, "Dekan", _once("Dekan"))  # draw 2
    sc.play(0, "Ordensburg")
    assert not sc.usable(0, "Ordensburg", _once("Ordensburg"))  # draw 1 after draw 2: nothing
    assert not sc.usable(0, "Mächtige Statur", _once("Mächtige Statur"))  # draw 2 after draw 2: nothing


# -- „Ist der Nachziehstapel leer, wird der Ablagestapel gemischt …“ is a state --------------

def test_vision_finds_the_cards_of_the_ablage_when_the_draw_pile_is_empty():
    # Nachziehstapel empty, Ablage full: paying Vision (discard itself) is a rule step, after
    # which the Ablage is the shuffled Nachziehstapel, so „wähle … aus Deinem Nachziehstapel“
    # finds the Gebet
    sc = Scenario([{"auslage": ["Vision"], "ablage": ["Gebet", "Demut"]}, OPP])
    sc.activate(0, "Vision", 0, choose=["Gebet"])
    assert sorted(sc.zone(0, "hand")) in (["Demut", "Gebet"], ["Gebet", "Vision"])
    assert [e for e in sc.events if e["type"] == "choose"][0]["source"] == "deck"


def test_a_card_discarded_onto_the_ablage_beside_an_empty_draw_pile_is_shuffled_in_at_once():
    sc = Scenario([{"hand": ["Demut"] * 9}, OPP])
    sc.end_turn(0)
    assert sc.state["phase"] == "discard"
    step = sc.discard(0, "Demut")
    assert sc.zone(0, "ablage") == [] and sc.zone(0, "deck") == ["Demut"]
    assert "reshuffle" in [e["type"] for e in step.events] and step.reveals


# -- card identities say nothing about the draw order ----------------------------------------

def _setup(seed, version=None):
    choices = [{"deck": "starter:schwert"}, {"deck": "starter:buch"}]
    if version is None:
        return ENGINE.setup(2, {}, seed, choices)
    return ENGINE.setup_version(version, 2, {}, seed, choices)


def test_instance_ids_do_not_follow_the_draw_order():
    # before: ids ascended through the Nachziehstapel (drawn from the end), so the 7 cards of
    # the opening hand were always the seat's 7 highest deck ids, and any played id told the
    # table which draw it came from
    tops = 0
    for seed in range(40):
        st = _setup(seed)
        for p in st["p"]:
            ids = sorted(p["hand"] + p["deck"])
            tops += sorted(p["hand"]) == ids[-len(p["hand"]):]
            assert p["deck"] != sorted(p["deck"]) and p["deck"] != sorted(p["deck"], reverse=True)
    assert tops == 0


def test_a_reshuffled_pile_deals_ids_out_of_order():
    sc = Scenario([{"hand": ["Demut"] * 9, "ablage": ["Gebet", "Kraft", "Demut", "Vision", "Eifer", "Talent",
                                                      "Schriftrolle", "Foliant"]}, OPP])
    sc.end_turn(0)  # a rule step: the empty Nachziehstapel takes the shuffled Ablage at once
    deck = sc.state["p"][0]["deck"]
    assert len(deck) == 8 and deck != sorted(deck) and deck != sorted(deck, reverse=True)


def test_a_match_set_up_under_engine_version_1_replays_with_its_old_set_up():
    from games.orden.plugin import PLUGIN
    choices = [{"deck": "starter:schwert"}, {"deck": "starter:buch"}]
    old = PLUGIN.setup_recorded("1", 2, {}, 5, choices)
    assert "v" not in old
    for p in old["p"]:  # version 1 dealt the ids in the draw order
        assert p["deck"] == sorted(p["deck"]) and sorted(p["hand"]) == sorted(p["hand"] + p["deck"])[-7:]
    assert PLUGIN.setup_recorded(ENGINE.meta.engine_version, 2, {}, 5, choices) == ENGINE.setup(2, {}, 5, choices)
    assert ENGINE.setup(2, {}, 5, choices)["v"] == int(ENGINE.meta.engine_version)


def test_a_version_1_state_keeps_its_rules_of_the_draw_pile():
    sc = Scenario([{"hand": ["Demut"] * 9}, OPP])
    del sc.state["v"]
    sc.end_turn(0)
    sc.discard(0, "Demut")
    assert sc.zone(0, "ablage") == ["Demut"] and sc.zone(0, "deck") == []
