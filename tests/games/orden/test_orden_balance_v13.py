"""Data version 13 — Gnade removes itself when its ascent is used, it is not discarded.

Gnade is the set's catch-up ascent: while an opponent ranks above you (from RANG IV on), 3x ? of any kind
from the hand make you ascend, whatever your Pfad asks. Discarded, it came back with every reshuffle and
every recall from the Ablage (Schriftrolle, Magister Gregor, Professor). On version 12 the harness's
search found a 32-card deck with two Gnaden (orden_harness.KNOWN_DECKS "thin-grace": Lehrling, Lehrer,
Schmied, no VI+) that parked at Lehrer and left V → VI by Gnade in 69 of 79 games; it won 74.5 / 75.8 /
75.5 % of 400 fresh games against Schwert / Hammer / Buch. Taken apart, Gnade alone carried it (one Gnade
50.5 %, none 0.0: Gnade was its only S). Removed when used, a grace comes once per copy („Unverdient und
doch geschenkt“); Erlösung and Rückbesinnung, which take a card back from the Außenwelt, are the way to a
second one. Screened (bench/run.py orden compare --seed 1000001 --seeds 100, 200 games against Schwert): thin-grace
77.0 → 37.5 %, its Geselle variant 84.5 → 58.0 %; the starters moved 1-3 points on the same seeds. A match or
deck of version 12 keeps its cards."""
from orden_scenario import CS, Scenario, no_of, starter_names

from games.orden.plugin import PLUGIN
from games.orden.text import card_text

FILL = ["Demut"] * 10


def test_new_number_and_the_old_one_retired():
    assert no_of("Gnade") == 270 and no_of("Gnade", 12) == 170
    assert CS.cards[170].until == 12 and CS.cards[270].since == 13
    old, new = CS.cards[170].abilities[0], CS.cards[270].abilities[0]
    assert [c.verb for c in old.costs] == ["discard", "discard"] and [c.verb for c in new.costs] == ["remove", "discard"]
    assert new.conditions == old.conditions and new.verbs == old.verbs  # the rest of the rule is the same
    assert "entferne diese Karte" in card_text(CS.cards[270], "de")[1]
    assert "remove this card" in card_text(CS.cards[270], "en")[1]


def grace(version=None):
    """Seat 0 at RANG V behind a RANG VII rival, Gnade in the Auslage and 3 cards to pay with."""
    sc = Scenario([{"path": "hammer", "rank": "V", "auslage": ["Gnade"], "hand": ["Demut", "Talent", "Demut"],
                    "deck": FILL}, {"path": "schwert", "rank": "VII", "deck": FILL}], version=version)
    sc.activate(0, "Gnade", 0, pay=["Demut", "Talent", "Demut"])
    return sc


def test_a_used_gnade_goes_to_the_aussenwelt():
    sc = grace()
    assert sc.rank(0) == "VI"
    assert sc.zone(0, "aussen") == ["Gnade"]
    assert "Gnade" not in sc.zone(0, "ablage") and sorted(sc.zone(0, "ablage")) == ["Demut", "Demut", "Talent"]


def test_version_12s_gnade_was_discarded():
    sc = grace(12)
    assert sc.rank(0) == "VI"
    assert sc.zone(0, "aussen") == [] and "Gnade" in sc.zone(0, "ablage")


def test_a_removed_gnade_comes_back_only_from_the_aussenwelt():
    # Erlösung takes a card back from the Außenwelt: the way to a second grace
    sc = Scenario([{"path": "hammer", "rank": "V", "auslage": ["Gnade", "Erlösung", "Eifer"],
                    "hand": ["Demut", "Talent", "Demut"], "deck": FILL},
                   {"path": "schwert", "rank": "VII", "deck": FILL}])
    sc.activate(0, "Gnade", 0, pay=["Demut", "Talent", "Demut"])
    sc.activate(0, "Erlösung", 0, choose=["Gnade"])
    assert "Gnade" in sc.zone(0, "hand") and sc.zone(0, "aussen") == []


def test_the_starters_keep_their_cards_by_name():
    for path in ("schwert", "hammer", "buch"):
        assert starter_names(path, 13) == starter_names(path, 12), path


def test_version_12_matches_keep_their_cards():
    old = PLUGIN.setup_recorded("12", 2, {}, 5, [{"deck": "starter:hammer"}, {"deck": "starter:buch"}])
    assert old["v"] == 12 and 170 in old["ci"] and 270 not in old["ci"]
    new = PLUGIN.setup_recorded("13", 2, {}, 5, [{"deck": "starter:hammer"}, {"deck": "starter:buch"}])
    assert new["v"] == 13 and 270 in new["ci"] and 170 not in new["ci"]
