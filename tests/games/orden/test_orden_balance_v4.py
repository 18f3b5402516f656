"""The balance pass measured with the lookahead pilot (data version 4). Cards changed in
two rounds (Kraft, Foliant, Dekan, Triumvirat; then Komtur, Meister, Erzmeister, Schriftrolle, Goldbarren, Disputation, Ritter:
docs/games/orden.md, "Balance"); each is a new card number, and a match set up under version 3 keeps the old
ones."""
from orden_scenario import CS, Scenario, no_of

from games.orden import decks
from games.orden.plugin import PLUGIN

FILL = ["Demut"] * 10


def test_version_3_matches_keep_their_cards_and_new_ones_take_the_new_versions():
    choices = [{"deck": "starter:schwert"}, {"deck": "starter:buch"}]
    old = PLUGIN.setup_recorded("3", 2, {}, 5, choices)
    new = PLUGIN.setup_recorded("4", 2, {}, 5, choices)
    assert old["v"] == 3 and new["v"] == 4
    old_nos = {old["ci"][i] for p in old["p"] for i in p["hand"] + p["deck"] + p["pfad"]}
    new_nos = {new["ci"][i] for p in new["p"] for i in p["hand"] + p["deck"] + p["pfad"]}
    assert {120, 141, 17, 19, 140, 146} <= old_nos and not {220, 241, 38, 39, 240, 246} & old_nos
    assert {220, 241, 38, 39, 240, 246} <= new_nos and not {120, 141, 17, 19, 140, 146} & new_nos
    assert 29 in decks.starter("hammer", 3)["pfad"] and 37 in decks.starter("hammer", 4)["pfad"]
    assert 33 in decks.starter("buch", 3)["pfad"] and 35 in decks.starter("buch", 4)["pfad"]
    assert all(CS.cards[no].in_version(3) for no in old_nos) and all(CS.cards[no].in_version(4) for no in new_nos)


def test_kraft_hits_but_draws_no_more():
    sc = Scenario([{"path": "schwert", "auslage": ["Kraft"], "deck": FILL},
                   {"path": "hammer", "hand": ["Silberling"] * 2, "deck": FILL}])
    sc.activate(0, "Kraft", 0)
    assert sc.hand_size(1) == 1 and sc.hand_size(0) == 0
    assert no_of("Kraft") == 220 and [v.kind for a in CS.cards[120].abilities for v in a.verbs][-1] == "draw"


def test_foliant_draws_two_once_per_turn_with_6_w():
    # versions 4-10 (8x W from version 11: test_orden_balance_v11.py)
    sc = Scenario([{"path": "buch", "auslage": ["Foliant", "Foliant", "Foliant"], "deck": FILL}, {"deck": FILL}],
                  version=10)
    sc.activate(0, "Foliant", 0)
    assert sc.hand_size(0) == 2
    assert not sc.usable(0, "Foliant", 0)  # once per turn, every card of that name


def test_dekan_ascends_cheaply_from_6_w():
    hand = ["Foliant", "Foliant", "Gehorsam"]
    sc = Scenario([{"path": "buch", "rank": "VI+", "plus6": True, "auslage": ["Foliant", "Foliant", "Foliant"],
                    "hand": hand, "deck": FILL}, {"deck": FILL}])
    assert sc.usable(0, "Dekan", 2)  # 6x W lie out (8x was needed in version 3)
    sc.activate(0, "Dekan", 2, pay=hand)
    assert sc.rank(0) == "VII"


def test_triumvirat_delivers_but_gives_no_extra_play_since_version_4():
    assert CS.cards[108].until == 3 and CS.cards[208].since == 4 and not CS.cards[208].abilities
    sc = Scenario([{"rank": "IV", "plus6": True, "auslage": ["Triumvirat"], "deck": FILL}, {"deck": FILL}])
    assert sc.limits(0)["play"] == 1


def test_komtur_gives_one_more_play():
    sc = Scenario([{"path": "hammer", "rank": "VI+", "plus6": True, "deck": FILL}, {"deck": FILL}])
    assert no_of("Komtur") == 37 and CS.cards[29].until == 3
    assert sc.limits(0)["play"] == 2  # version 3's Komtur (29): 1


def test_meister_is_left_cheaply_with_vi_plus_in_the_pfad():
    """The optional rank pays back its step: from VII, 1x T and 2x E (no MYSTERIUM needed)."""
    hand = ["Demut", "Gebet", "Gebet"]
    sc = Scenario([{"path": "hammer", "rank": "VII", "plus6": True, "hand": hand, "deck": FILL}, {"deck": FILL}])
    assert no_of("Meister") == 38 and sc.usable(0, "Meister", 2)
    sc.activate(0, "Meister", 2, pay=hand)
    assert sc.rank(0) == "VIII"
    # without VI+ in the Pfad the same hand does not ascend (no MYSTERIUM, too few E)
    sc = Scenario([{"path": "hammer", "rank": "VII", "hand": hand, "deck": FILL}, {"deck": FILL}])
    assert not any(sc.usable(0, "Meister", a) for a in range(3))


def test_erzmeister_is_left_for_one_s_with_ix_plus_in_the_pfad():
    seat = {"path": "buch", "rank": "IX", "auslage": ["Vision", "Vision"], "hand": ["Gnade"], "deck": FILL}
    sc = Scenario([dict(seat, plus9=True), {"deck": FILL}])
    assert no_of("Erzmeister") == 39 and sc.usable(0, "Erzmeister", 2)
    sc.activate(0, "Erzmeister", 2, pay=["Gnade"])
    assert sc.rank(0) == "IX+"
    sc = Scenario([seat, {"deck": FILL}])  # without IX+: the old ways, 2x E and 1x S from the hand
    assert not any(sc.usable(0, "Erzmeister", a) for a in range(3))


def test_schriftrolle_recalls_a_card_and_draws_one():
    sc = Scenario([{"path": "buch", "auslage": ["Schriftrolle"], "ablage": ["Kraft"], "deck": FILL},
                   {"deck": FILL}])
    sc.activate(0, "Schriftrolle", 0, choose=["Kraft"])
    assert sorted(sc.zone(0, "hand")) == ["Demut", "Kraft"]  # version 3's Schriftrolle (140): Kraft only


def test_goldbarren_trades_only_from_8_v():
    sc = Scenario([{"path": "hammer", "auslage": ["Goldbarren"] * 3, "hand": ["Demut"], "deck": FILL},
                   {"deck": FILL}])
    assert not sc.usable(0, "Goldbarren", 0)  # 6x V: enough for version 3's Goldbarren (131)
    sc = Scenario([{"path": "hammer", "auslage": ["Goldbarren"] * 4, "hand": ["Demut"], "deck": FILL},
                   {"deck": FILL}])
    assert sc.usable(0, "Goldbarren", 0)


def test_disputation_prevents_an_aktion_for_itself_alone():
    """With 2x W besides (version 3, card 146) the answer ate the W of Buch's own ascents: one
    Disputation fewer won Buch 7 points against Hammer (docs/games/orden.md, "Balance")."""
    sc = Scenario([{"path": "hammer", "auslage": ["Werkzeug"], "hand": ["Silberling"], "deck": FILL},
                   {"path": "buch", "hand": ["Disputation"], "deck": FILL}])
    sc.auto_decline = False
    sc.activate(0, "Werkzeug", 0, pay=["Silberling"])
    sc.react(1, "Disputation", 0)
    assert "prevented" in sc.event_types()
    assert sc.zone(0, "hand") == ["Silberling"] and sc.hand_size(1) == 0  # nothing drawn, nothing paid
    assert CS.cards[246].since == 4 and CS.cards[246].until == 5 and CS.cards[146].until == 3


def test_ritter_plays_one_more_only_while_stronger_in_k():
    """Another path's Pfad took Ritter for its extra play alone (the harness's find: a Hammer Pfad with
    Ritter at V, 81 % against the Hammer starter); now the play needs the force it stands for."""
    strong = Scenario([{"path": "schwert", "rank": "V", "auslage": ["Mächtige Statur"], "deck": FILL},
                       {"path": "hammer", "deck": FILL}])
    assert no_of("Ritter") == 41 and CS.cards[23].until == 3
    assert strong.limits(0)["play"] == 2
    weak = Scenario([{"path": "schwert", "rank": "V", "deck": FILL},
                     {"path": "schwert", "auslage": ["Mächtige Statur"], "deck": FILL}])
    assert weak.limits(0)["play"] == 1  # version 3's Ritter (23): 2


def test_two_lookahead_bots_do_not_stand_still_until_the_cap():
    """Two recorded games in which both lookahead bots, at IX, ended turn after turn with a full hand
    until the harness's 300-round cap (simulated games always end)."""
    from bench.orden import harness as H

    for seed, pair in ((22, ["starter:buch", "starter:schwert"]), (25, ["starter:hammer", "starter:buch"])):
        r = H.play_game({"decks": pair, "seed": seed, "pilots": ["lookahead"] * 2})
        assert r["winner"] is not None and r["rounds"] < 100, (seed, r["rounds"])
