"""The reaction window: clockwise asking, skipping, never ask me, costs after the window."""
from orden_scenario import Scenario

from games.orden.engine import ENGINE

T_HAND = ["Treueschwur", "Treueschwur", "Silberling"]


def actor(**kw):
    return {"path": "schwert", "rank": "IV", "hand": ["Mächtige Statur", "Mächtige Statur", "Kraft", "Demut"],
            "deck": ["Demut"] * 10, **kw}


def objector(**kw):
    return {"path": "hammer", "rank": "IV", "hand": ["Einspruch"] + T_HAND, "deck": ["Demut"] * 10, **kw}


def idle(**kw):
    return {"path": "buch", "rank": "I", "hand": ["Schriftrolle"] * 3, "deck": ["Demut"] * 10, **kw}


def test_asked_clockwise_starting_left_of_the_actor():
    sc = Scenario([objector(), idle(), actor(), objector()], cur=2)
    sc.auto_decline = False
    sc.activate(2, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Kraft"])
    asked = []
    while sc.state["phase"] == "react":
        seat = sc.to_move()[0]
        asked.append(seat)
        sc.decline(seat)
    assert asked == [3, 0, 1]  # seat 1 holds no reaction and is asked all the same (issue 14)
    assert sc.rank(2) == "V"


def test_costs_are_paid_only_after_the_window():
    sc = Scenario([actor(), objector()])
    hand = sorted(sc.zone(0, "hand"))
    sc.do(0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1})
    assert sc.to_move() == [1] and sorted(sc.zone(0, "hand")) == hand
    view = ENGINE.view(sc.state, 1)
    assert view["pending"]["seat"] == 0 and view["pending"]["deadline_hours"] == 24
    sc.decline(1)
    assert sc.state["phase"] == "pay" and sc.to_move() == [0]
    for name in ("Mächtige Statur", "Mächtige Statur", "Kraft"):
        sc.do(0, sc._pick(0, name))
    assert sc.rank(0) == "V" and sc.state["phase"] == "main"
    assert sorted(sc.zone(0, "ablage")) == ["Kraft", "Mächtige Statur", "Mächtige Statur"]


def test_einspruch_is_played_from_hand_and_prevents():
    sc = Scenario([actor(), objector()])
    sc.activate(0, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Kraft"])
    sc.react(1, "Einspruch", 0, pay=["Treueschwur"])
    assert sc.rank(0) == "IV" and "Einspruch" in sc.zone(1, "ablage")
    assert sorted(sc.zone(1, "ablage")) == ["Einspruch", "Treueschwur"]
    assert sc.state["t"]["blocked"] == ["Knappe|1"]


def test_rank_gate_of_a_reaction_card():
    sc = Scenario([actor(), objector(rank="III")])
    sc.auto_decline = False
    sc.activate(0, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Kraft"])
    assert sc.legal(1) == [{"type": "decline"}, {"type": "decline", "never_ask": True}]  # Einspruch works from IV
    sc.decline(1)
    assert sc.rank(0) == "V"


def test_never_ask_me():
    sc = Scenario([actor(auslage=["Eifer", "Waffenübung"]), objector(), objector()])
    sc.activate(0, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Kraft"])
    assert sc.to_move() == [1]
    sc.decline(1, never_ask=True)
    assert sc.state["p"][1]["never"] and sc.to_move() == [2]
    sc.decline(2)
    assert sc.rank(0) == "V"
    sc.end_turn(0)
    # in its own turn seat 1 may switch asking on again
    assert {"type": "never_ask", "value": False} in sc.legal(1)
    sc.do(1, {"type": "never_ask", "value": False})
    assert not sc.state["p"][1]["never"]


def test_reaction_that_does_not_prevent_lets_the_window_go_on():
    sc = Scenario([{"auslage": ["Waffenübung"], "deck": ["Demut"] * 10},
                   {"hand": ["Wachsamkeit"], "deck": ["Gebet"] * 5},
                   {"hand": ["Wachsamkeit"], "deck": ["Gebet"] * 5}])
    sc.activate(0, "Waffenübung", 0)
    sc.react(1, "Wachsamkeit", 0)
    assert sc.hand_size(1) == 2 and sc.to_move() == [2]
    sc.decline(2)
    assert sc.hand_size(0) == 2 and sc.state["phase"] == "main"


def test_ascent_reactions_only_answer_ascents_and_plays_open_no_window():
    sc = Scenario([actor(auslage=["Waffenübung"], hand=["Kraft"]), objector()])
    sc.play(0, "Kraft")
    assert sc.state["phase"] == "main"
    sc.activate(0, "Waffenübung", 0)
    assert sc.state["phase"] == "main"  # Einspruch answers ascents only


def test_once_per_turn_effect_cannot_be_reacted_to_and_only_the_best_is_used():
    sc = Scenario([{"path": "buch", "rank": "VI+", "plus6": True, "auslage": ["Ordensburg"], "deck": ["Demut"] * 10},
                   {"hand": ["Wachsamkeit"]}])
    uses = [a for a in sc.legal(0) if a["type"] == "activate" and a["card"] in
            (sc._find(0, "Dekan"), sc._find(0, "Ordensburg"))]
    assert len(uses) == 1  # the weaker Ordensburg is not offered beside the Dekan (issue 14)
    sc.activate(0, "Dekan", 0)
    assert sc.hand_size(0) == 2 and sc.state["phase"] == "main"  # no window
    assert not sc.usable(0, "Ordensburg", 0)  # draw 2 beats draw 1, never 3


def test_not_asked_seat_cannot_act():
    sc = Scenario([actor(), objector(), objector()])
    sc.activate(0, "Knappe", 1)
    assert sc.legal(2) == [] and sc.legal(0) == []
    e = sc.illegal(2, {"type": "decline"})
    assert e.reason_de


def test_one_reaction_per_card_but_a_seat_may_react_with_several_cards():
    sc = Scenario([actor(), objector(hand=["Einspruch", "Wachsamkeit"] + T_HAND, deck=["Gebet"] * 5)])
    sc.activate(0, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Kraft"])
    sc.react(1, "Wachsamkeit", 0)
    assert sc.to_move() == [1] and sc.hand_size(1) == 6  # asked again: Einspruch can still react
    assert "Wachsamkeit" in sc.zone(1, "ablage")
    sc.react(1, "Einspruch", 0, pay=["Treueschwur"])
    assert sc.rank(0) == "IV" and "prevented" in sc.event_types()
