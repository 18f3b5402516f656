"""Issue 24 („Der Orden, second pass“): the data and rules defects, one scenario each (each
failed on the engine before its fix)."""
from orden_scenario import Scenario

from games.orden.catalog import cardset
from games.orden.text import ability as ability_text

OPP = {"path": "hammer", "hand": ["Silberling"] * 7, "deck": ["Silberling"] * 10}


# -- „… darf in diesem Zug von dieser Karte (oder anderen gleichen Namens) nicht nochmal
#    ausgeführt werden“ ------------------------------------------------------------------------

def grossmeister_ascends():
    # seat 0 holds rank IX+ with 3 actions (Großmeister AKTIONEN+1, Mysterium der Flamme from
    # rank VII), owns 4x E and can pay the cheap ascent (1x E + 1x S) twice; seat 1 holds two
    # „Einspruch“ (prevent an ascent: discard it and 2x T)
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
    sc.react(1, "Einspruch", 0, pay=["Treueschwur"])
    assert "prevented" in sc.event_types() and sc.rank(0) == "IX+"
    assert sc.state["t"]["acts"] == 1 and sc.state["t"]["acts"] < sc.limits(0)["actions"]
    assert _ascents(sc, 0, text) == []  # no other copy of the same Aktion this turn


def test_a_prevented_aktion_is_blocked_for_every_card_of_that_name():
    sc = Scenario([{"auslage": ["Eifer", "Waffenübung", "Waffenübung"], "deck": ["Demut"] * 10},
                   {"hand": ["Disputation", "Schriftrolle", "Schriftrolle"]}])
    sc.auto_decline = False
    first, second = sc.state["p"][0]["auslage"][1:]
    sc.do(0, {"type": "activate", "card": first, "ability": 0})
    sc.react(1, "Disputation", 0, pay=["Schriftrolle", "Schriftrolle"])
    assert "prevented" in sc.event_types()
    assert {"type": "activate", "card": second, "ability": 0} not in sc.legal(0)
