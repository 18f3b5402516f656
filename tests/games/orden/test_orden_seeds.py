"""Every example of the seed rules as a scenario test."""
from orden_scenario import Scenario, no_of

from games.orden import rules as R

FILLER = ["Kraft", "Kraft", "Kraft", "Demut", "Demut", "Gebet", "Gebet"]
OPP = {"path": "hammer", "hand": ["Silberling"] * 7, "deck": ["Silberling"] * 10}


def test_opening_in_three_turns_without_einladung_or_versprechen_in_hand():
    sc = Scenario([{"path": "schwert", "hand": FILLER,
                    "deck": ["Gebet", "Das Versprechen", "Kraft", "Einladung", "Gebet"] + ["Demut"] * 10},
                   OPP])
    assert "Einladung" not in sc.zone(0, "hand") and "Das Versprechen" not in sc.zone(0, "hand")
    # turn 1: Vor den Mauern fetches Einladung, which is played
    sc.activate(0, "Vor den Mauern", 0, choose=["Einladung"])
    assert sc.hand_size(0) == 8
    sc.play(0, "Einladung")
    n_events = len(sc.events)
    sc.end_turn(0)
    assert sc.hand_size(0) == 7
    assert not [e for e in sc.events[n_events:] if e["type"] in ("draw", "discard") and e.get("seat") == 0]
    sc.end_turn(1)
    # turn 2: Einladung is discarded to fetch Das Versprechen, which is played
    sc.activate(0, "Einladung", 0, choose=["Das Versprechen"])
    assert "Einladung" in sc.zone(0, "ablage")
    sc.play(0, "Das Versprechen")
    n_events = len(sc.events)
    sc.end_turn(0)
    assert sc.hand_size(0) == 7
    assert not [e for e in sc.events[n_events:] if e["type"] in ("draw", "discard") and e.get("seat") == 0]
    sc.end_turn(1)
    # turn 3: Das Versprechen ascends: Adept on top, rank I
    sc.activate(0, "Das Versprechen", 0)
    assert sc.rank(0) == "I"
    assert sc.zone(0, "pfad")[0] == "Adept" and sc.zone(0, "pfad")[-1] == "Vor den Mauern"
    assert sc.hand_size(0) == 7
    # Das Versprechen ascends only without a rank
    assert not sc.usable(0, "Das Versprechen", 0)


def test_chosen_card_from_the_deck_is_shown_and_the_deck_shuffled():
    sc = Scenario([{"hand": FILLER, "deck": ["Demut", "Einladung", "Gebet"]}, OPP])
    sc.activate(0, "Vor den Mauern", 0, choose=["Einladung"])
    # the search happens when the reaction window closes (the opponent's decline): every
    # opponent is asked, so it is no longer inside the announcing step
    step = sc.steps[-1]
    assert step.reveals
    types = [e["type"] for e in step.events]
    assert "choose" in types and "shuffle" in types
    assert sc.zone(0, "hand").count("Einladung") == 1
    # the other players see which card was taken into the hand
    from games.orden.engine import ENGINE
    assert [c["no"] for c in ENGINE.view(sc.state, 1)["seats"][0]["known_hand"]] == [no_of("Einladung")]


def knappe(auslage, hand=(), **kw):
    return Scenario([{"path": "schwert", "rank": "IV", "auslage": list(auslage), "hand": list(hand),
                      "deck": ["Demut"] * 10, **kw}, OPP])


def test_knappe_with_mentor_ascends_and_mentor_michael_leaves_at_rank_v():
    sc = knappe(["Mentor Michael", "Kraft", "Kraft", "Mächtige Statur"])
    assert sc.rank(0) == "IV" and sc.zone(0, "pfad")[0] == "Knappe"
    # with the MENTOR the K in the Auslage count double: 2x1 + 2 = 4 -> 8 (the seed says 6; 8 meets 6x K)
    cond = R.C[no_of("Knappe")].abilities[0].conditions[0]
    assert R.holds1(sc.state, 0, cond)
    assert R.holds1(sc.state, 0, type(cond)("possess_props", props=(("K", 8),)))
    assert not R.holds1(sc.state, 0, type(cond)("possess_props", props=(("K", 9),)))
    sc.activate(0, "Knappe", 0)
    assert sc.rank(0) == "V" and sc.zone(0, "pfad")[0] == "Ritter"
    assert "Mentor Michael" in sc.zone(0, "ablage") and "Mentor Michael" not in sc.zone(0, "auslage")
    assert sorted(sc.zone(0, "auslage")) == ["Kraft", "Kraft", "Mächtige Statur"]  # nothing paid


def test_knappe_without_mentor_needs_to_discard_5_k():
    sc = knappe(["Kraft", "Kraft", "Mächtige Statur"], hand=["Mächtige Statur", "Mächtige Statur", "Der Beginn des Weges"])
    assert not R.holds(sc.state, 0, R.C[no_of("Knappe")].abilities[0].conditions)  # only 4x K lie out
    sc.activate(0, "Knappe", 1, pay=["hand:Mächtige Statur", "hand:Mächtige Statur", "Der Beginn des Weges"])
    assert sc.rank(0) == "V"
    assert sorted(sc.zone(0, "ablage")) == ["Der Beginn des Weges", "Mächtige Statur", "Mächtige Statur"]
    assert sorted(sc.zone(0, "auslage")) == ["Kraft", "Kraft", "Mächtige Statur"]


def test_der_beginn_des_weges_delivers_any_property_only_from_rank_iii():
    card = R.C[no_of("Der Beginn des Weges")]
    for rank, expect in (("0", []), ("I", []), ("II", []), ("III", [{"?": 1}]), ("IV", [{"?": 1}])):
        sc = Scenario([{"rank": rank}, OPP])
        assert R.deliveries(sc.state, 0, card, "hand") == expect, rank
    # a Novize (rank II) cannot use it for 4x T + 2x ?; an Anwärter (III) pays 2x T + 2x ? with it
    sc = Scenario([{"rank": "II", "hand": ["Treueschwur", "Treueschwur", "Der Beginn des Weges", "Der Beginn des Weges"]}, OPP])
    assert not sc.usable(0, "Novize", 1)
    sc = Scenario([{"rank": "III", "auslage": ["Treueschwur", "Treueschwur"],
                    "hand": ["Treueschwur", "Der Beginn des Weges", "Der Beginn des Weges"]}, OPP])
    sc.activate(0, "Anwärter", 0, pay=["Treueschwur", "Der Beginn des Weges", "Der Beginn des Weges"])
    assert sc.rank(0) == "IV"


def test_gehorsam_delivers_2_t_or_one_any_but_not_both():
    # as one ? it can stand for the fifth K of the Knappe
    sc = knappe([], hand=["Mächtige Statur", "Mächtige Statur", "Gehorsam"])
    sc.activate(0, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Gehorsam"])
    assert sc.rank(0) == "V"
    # 2x T + 2x ? from the hand needs four points: Gehorsam gives 2x T or 1x ?, never 3
    base = {"rank": "III", "auslage": ["Treueschwur", "Treueschwur"]}
    sc = Scenario([{**base, "hand": ["Gehorsam", "Demut"]}, OPP])
    assert not sc.usable(0, "Anwärter", 0)
    sc = Scenario([{**base, "hand": ["Gehorsam", "Demut", "Kraft"]}, OPP])
    sc.activate(0, "Anwärter", 0, pay=["Gehorsam", "Demut", "Kraft"])
    assert sc.rank(0) == "IV"


def grossmeister_table(eifer=False):
    return Scenario([
        {"path": "schwert", "rank": "IV", "hand": ["Mächtige Statur", "Mächtige Statur", "Kraft", "Demut"],
         "auslage": ["Eifer"] if eifer else [], "deck": ["Demut"] * 10},
        {"path": "buch", "rank": "IX+", "plus9": True, "hand": ["Gebet", "Foliant", "Schriftrolle", "Demut"]},
        {"path": "hammer", "rank": "II", "hand": ["Silberling"] * 5},
    ])


def test_grossmeister_prevents_an_ascent_nothing_is_paid_action_used():
    sc = grossmeister_table()
    hand_before = sorted(sc.zone(0, "hand"))
    sc.activate(0, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Kraft"])
    assert sc.to_move() == [1]  # seat 2 has no reaction and is never asked
    assert sc.state["phase"] == "react"
    sc.react(1, "Großmeister", 0, pay=["Gebet", "Foliant"])
    assert sc.rank(0) == "IV"
    assert sorted(sc.zone(0, "hand")) == hand_before and sc.zone(0, "ablage") == []
    assert sorted(sc.zone(1, "aussen")) == ["Foliant", "Gebet"]
    assert sc.state["t"]["acts"] == 1 and sc.to_move() == [0]
    assert not [a for a in sc.legal(0) if a["type"] == "activate"]  # the one action is used
    assert "prevented" in sc.event_types()


def test_prevented_action_is_blocked_for_the_turn_even_with_actions_left():
    sc = grossmeister_table(eifer=True)
    sc.activate(0, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Kraft"])
    sc.react(1, "Großmeister", 0, pay=["Gebet", "Foliant"])
    assert sc.state["t"]["acts"] == 1 and sc.limits(0)["actions"] == 2
    assert not [a for a in sc.legal(0) if a["type"] == "activate" and a["card"] == sc._find(0, "Knappe")]
    sc.end_turn(0)
    sc.end_turn(1)
    sc.end_turn(2)
    assert sc.usable(0, "Knappe", 1)  # next turn again


def test_eifer_gives_two_actions():
    assert Scenario([{"auslage": ["Eifer"]}, OPP]).limits(0)["actions"] == 2
    assert Scenario([{}, OPP]).limits(0)["actions"] == 1
    two = Scenario([{"auslage": ["Eifer", "Eifer"]}, OPP])
    assert two.limits(0)["actions"] == 3  # AKTIONEN+n add up


def test_two_actions_with_eifer_used_in_one_turn():
    sc = Scenario([{"auslage": ["Eifer", "Meditation", "Einladung"], "deck": ["Demut"] * 20}, OPP])
    sc.activate(0, "Meditation", 0)
    sc.activate(0, "Einladung", 1)
    assert sc.state["t"]["acts"] == 2
    assert not [a for a in sc.legal(0) if a["type"] == "activate"]


def test_geselle_has_hand_limit_8():
    sc = Scenario([{"path": "hammer", "rank": "V", "hand": ["Silberling"] * 3, "deck": ["Demut"] * 20}, OPP])
    assert sc.zone(0, "pfad")[0] == "Geselle" and sc.limits(0)["hand"] == 8
    sc.end_turn(0)
    assert sc.hand_size(0) == 8
    assert Scenario([{"path": "hammer", "rank": "IV"}, OPP]).limits(0)["hand"] == 7


def test_a_second_mentor_replaces_the_first():
    sc = Scenario([{"auslage": ["Anwerber Alfred", "Kraft"], "hand": ["Mentor Michael"], "deck": ["Demut"] * 3}, OPP])
    sc.play(0, "Mentor Michael")
    assert "Anwerber Alfred" in sc.zone(0, "ablage")
    assert sorted(sc.zone(0, "auslage")) == ["Kraft", "Mentor Michael"]


def test_mentor_michael_played_at_rank_v_leaves_at_once():
    sc = Scenario([{"rank": "V", "hand": ["Mentor Michael"], "deck": ["Demut"] * 3}, OPP])
    sc.play(0, "Mentor Michael")
    assert "Mentor Michael" in sc.zone(0, "ablage")


def test_triumvirat_needs_vi_plus_in_the_pfad_not_on_top():
    card = R.C[no_of("Triumvirat")]
    # RANG VII: VI+ lies below the top of the Pfad (from data version 22 the card asks RANG VI besides)
    sc = Scenario([{"rank": "VII", "plus6": True, "auslage": ["Triumvirat"]}, OPP])
    assert R.deliveries(sc.state, 0, card, "auslage") == [{"?": 1, "T": 1}]  # 3x ? until data version 4, 2x ? until 17
    sc = Scenario([{"rank": "VII", "auslage": ["Triumvirat"]}, OPP])
    assert R.deliveries(sc.state, 0, card, "auslage") == []
    old = R.C[no_of("Triumvirat", 21)]  # versions 18-21: from any rank
    sc = Scenario([{"rank": "IV", "plus6": True, "auslage": ["Triumvirat"]}, OPP], version=21)
    assert R.deliveries(sc.state, 0, old, "auslage") == [{"?": 1, "T": 1}]
    sc = Scenario([{"rank": "IV", "auslage": ["Triumvirat"]}, OPP])
    # Data version 4 took its AUSSPIELEN+1 (with it, one copy lifted a searched deck from 30 % to
    # 71 % against the Hammer starter: docs/games/orden.md); version 3's card keeps it for old matches.
    assert sc.limits(0)["play"] == 1 and not card.abilities
    assert [s.kind for a in R.C[108].abilities for s in a.statics] == ["limit"]
