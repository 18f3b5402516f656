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
    assert asked == [3, 0, 1]  # seat 1 holds no reaction and is asked all the same
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
    sc = Scenario([actor(), objector()], version=20)  # version 21's Einspruch: test_orden_balance_v21.py
    sc.activate(0, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Kraft"])
    sc.react(1, "Einspruch", 0, pay=["Treueschwur"])
    assert sc.rank(0) == "IV" and sc.zone(1, "aussen") == ["Einspruch"]  # removed: data version 6
    assert sc.zone(1, "ablage") == ["Treueschwur"]
    assert sc.state["t"]["blocked"] == ["Knappe|1"]


def test_rank_gate_of_a_reaction_card():
    sc = Scenario([actor(), objector(rank="III")])
    sc.auto_decline = False
    sc.activate(0, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Kraft"])
    assert sc.legal(1) == [{"type": "decline"}]  # Einspruch works from IV
    sc.decline(1)
    assert sc.rank(0) == "V"


def test_the_retired_never_ask_me_is_not_offered_but_old_logs_replay():
    # folded into the reactions order (games/orden/orders.py); a match whose log holds it
    # must still replay: the engine accepts it where it was legal, without listing it
    sc = Scenario([actor(auslage=["Eifer", "Waffenübung"]), objector(), objector()])
    assert all(a["type"] != "never_ask" for a in sc.legal(0))
    sc.activate(0, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Kraft"])
    assert sc.to_move() == [1] and sc.legal(1)[-1] == {"type": "decline"}
    sc.legacy(1, {"type": "decline", "never_ask": True})
    assert sc.state["p"][1]["never"] and sc.to_move() == [2]
    sc.decline(2)
    assert sc.rank(0) == "V"
    sc.end_turn(0)
    assert sc.illegal(2, {"type": "never_ask", "value": True})  # not its turn
    sc.legacy(1, {"type": "never_ask", "value": False})
    assert not sc.state["p"][1]["never"]
    assert sc.illegal(1, {"type": "never_ask", "value": "yes"})
