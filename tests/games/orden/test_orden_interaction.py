"""Interaction primitives of the card language: contests and forced discards,
shields against them, tolls, lowered limits, bans, catch-up conditions; and the lookahead
bot, which must not depend on hidden information."""
from orden_scenario import Scenario, no_of

from games.orden import rules as R
from games.orden.roster import BOTS
from games.rng import Rng

FILL = ["Demut"] * 10


def test_kraft_contest_hits_only_opponents_with_less_k():
    sc = Scenario([{"path": "schwert", "auslage": ["Kraft", "Mächtige Statur"], "deck": FILL},
                   {"path": "hammer", "hand": ["Silberling"] * 3, "deck": FILL},
                   {"path": "buch", "auslage": ["Mächtige Statur", "Mächtige Statur"], "hand": ["Gebet"] * 3,
                    "deck": FILL}])
    sc.activate(0, "Kraft", 0)
    assert sc.hand_size(1) == 2 and sc.zone(1, "ablage") == ["Silberling"]  # 0 K < 3 K
    assert sc.hand_size(2) == 3 and sc.zone(2, "ablage") == []  # 4 K: not weaker
    ev = [e for e in sc.events if e["type"] == "discard" and e.get("forced_by") == 0]
    assert [e["seat"] for e in ev] == [1]
    assert sc.hand_size(0) == 0  # since data version 4 Kraft only hits (its draw made it a card engine)


def test_a_hostile_reaction_shields_and_answers_only_hostile_actions():
    sc = Scenario([{"path": "schwert", "auslage": ["Kraft", "Mächtige Statur"], "hand": ["Demut"], "deck": FILL},
                   {"path": "schwert", "hand": ["Kampfgefährte", "Gebet"], "deck": FILL}])
    sc.activate(0, "Kraft", 0)
    assert sc.to_move() == [1]
    sc.react(1, "Kampfgefährte", 0)
    assert sc.zone(1, "hand") == ["Gebet"]  # nothing lost
    assert "prevented" in sc.event_types()
    # a peaceful Aktion does not open the shield's window
    sc2 = Scenario([{"path": "schwert", "auslage": ["Meditation"], "deck": FILL},
                    {"path": "schwert", "hand": ["Kampfgefährte"], "deck": FILL}])
    sc2.activate(0, "Meditation", 0)
    assert "react" not in sc2.event_types() and sc2.hand_size(0) == 2


def test_zoll_taxes_the_acting_player():
    sc = Scenario([{"path": "schwert", "auslage": ["Meditation"], "hand": ["Gebet", "Demut"], "deck": FILL},
                   {"path": "hammer", "hand": ["Zoll", "Silberling"], "deck": FILL}])
    sc.activate(0, "Meditation", 0)
    assert sc.to_move() == [1]
    sc.react(1, "Zoll", 0, pay=["Silberling"])
    discards = [e for e in sc.events if e["type"] == "discard" and e.get("forced_by") == 1]
    assert len(discards) == 1 and discards[0]["seat"] == 0
    assert sc.hand_size(0) == 1 + 2  # one lost to the toll, then Meditation drew 2


def test_lowered_limits_and_their_floor():
    sc = Scenario([{"path": "schwert", "rank": "V", "auslage": ["Burg Falkenstein", "Der Zehnt"]},
                   {"path": "buch", "rank": "VI", "auslage": ["Hörsaal", "Schriftrolle", "Schriftrolle"]}])
    assert sc.limits(1)["play"] == 1  # 1 + 1 (Hörsaal) - 1 (Falkenstein)
    assert sc.limits(1)["hand"] == 5  # 7 - 1 (Hörsaal) - 1 (Zehnt: its owner is behind, data version 7)
    plain = Scenario([{"path": "schwert", "auslage": ["Burg Falkenstein"]}, {"path": "hammer"}])
    assert plain.limits(1)["play"] == 1  # never below the floor
    gated = Scenario([{"path": "schwert", "rank": "IV", "auslage": ["Der Zehnt"]}, {"path": "hammer"}])
    assert gated.limits(1)["hand"] == 7  # Der Zehnt works from rank V on


def test_ban_only_while_behind():
    def table(rank_owner):
        return Scenario([{"path": "hammer", "rank": rank_owner, "auslage": ["Burg Eisenfels"], "deck": FILL},
                         {"path": "schwert", "rank": "IV", "hand": ["Burg Falkenstein", "Kraft"], "deck": FILL}], cur=1)
    behind = table("I")
    plays = [a["card"] for a in behind.legal(1) if a["type"] == "play"]
    assert behind._find(1, "Burg Falkenstein") not in plays and behind._find(1, "Kraft") in plays
    ahead = table("V")
    assert ahead._find(1, "Burg Falkenstein") in [a["card"] for a in ahead.legal(1) if a["type"] == "play"]


def test_catch_up_rules_need_someone_ahead():
    sc = Scenario([{"path": "schwert", "auslage": ["Demut"], "deck": FILL}, {"path": "hammer", "deck": FILL}])
    assert not sc.usable(0, "Demut", 0)
    sc2 = Scenario([{"path": "schwert", "auslage": ["Demut"], "deck": FILL},
                    {"path": "hammer", "rank": "II", "deck": FILL}])
    assert sc2.usable(0, "Demut", 0)
    sc2.activate(0, "Demut", 0)
    assert sc2.hand_size(0) == 2


def test_hoersaal_trades_hand_limit_for_a_play_and_fleiss_is_a_burst():
    # Fleiß (data version 3): this turn one card and one Aktion more (Beistand: two cards and a
    # draw), so neither is the other's better copy
    sc = Scenario([{"path": "buch", "auslage": ["Hörsaal", "Schriftrolle"]}, {"path": "hammer"}])
    assert sc.limits(0)["play"] == 1 and sc.limits(0)["hand"] == 7  # only 2 W cards: not yet
    sc = Scenario([{"path": "buch", "auslage": ["Hörsaal", "Schriftrolle", "Schriftrolle", "Fleiß"],
                    "deck": ["Demut"] * 3}, {"path": "hammer"}])
    assert sc.limits(0)["play"] == 2 and sc.limits(0)["hand"] == 6
    sc.activate(0, "Fleiß", 0)
    assert sc.limits(0)["play"] == 3 and sc.limits(0)["actions"] == 2 and "Fleiß" in sc.zone(0, "ablage")
    sc.end_turn(0)
    assert sc.limits(0)["play"] == 2 and sc.limits(0)["actions"] == 1  # one turn only


def test_lookahead_is_legal_and_blind_to_hidden_cards():
    a = Scenario([{"path": "schwert", "rank": "IV", "auslage": ["Kraft", "Kraft", "Mächtige Statur"],
                   "hand": ["Mächtige Statur", "Gebet", "Demut", "Waffenübung"], "deck": FILL},
                  {"path": "buch", "rank": "IV", "hand": ["Disputation", "Schriftrolle", "Foliant"],
                   "deck": ["Schriftrolle", "Gebet", "Vision", "Demut", "Foliant"]}])
    st1 = a.state
    # the same position for seat 0, but seat 1's hand and deck hold other cards in other places
    import copy
    st2 = copy.deepcopy(st1)
    p = st2["p"][1]
    p["hand"], p["deck"] = p["deck"][:3], p["hand"] + p["deck"][3:]
    st2["rng"] = 12345
    acts = []
    for st in (st1, st2):
        act = BOTS["lookahead"](st, 0, Rng(5))
        from games.orden.engine import ENGINE
        assert act in ENGINE.legal_actions(st, 0)
        acts.append(act)
    assert acts[0] == acts[1]
    assert R.rank(st1, 0) == 4.0 and no_of("Kraft")
