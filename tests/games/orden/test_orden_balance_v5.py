"""Data version 5 — Triumvirat delivers 2x ?, not 3x (every best find of the harness on
version 4 carried it: docs/games/orden.md, "Balance"). A match set up under version 4 keeps card 208."""
import pytest
from orden_scenario import CS, Scenario, hammer_deck_with, no_of

from games.orden import decks
from games.orden import rules as R
from games.orden.plugin import PLUGIN

FILL = ["Demut"] * 10


def test_triumvirat_delivers_two_wild_properties_with_vi_plus_in_the_pfad():
    assert no_of("Triumvirat", 17) == 308 and CS.cards[208].until == 4 and CS.cards[308].since == 5
    sc = Scenario([{"rank": "VI", "plus6": True, "hand": ["Triumvirat"], "deck": FILL}, {"deck": FILL}], version=17)
    assert R.deliveries(sc.state, 0, CS.cards[308], "hand") == [{"?": 2}]
    assert R.deliveries(sc.state, 0, CS.cards[208], "hand") == [{"?": 3}]  # version 4's card
    sc = Scenario([{"rank": "VI", "hand": ["Triumvirat"], "deck": FILL}, {"deck": FILL}], version=17)
    assert R.deliveries(sc.state, 0, CS.cards[308], "hand") == []  # without VI+ in the Pfad: nothing


def test_adept_cannot_be_left_with_triumvirat_and_one_treueschwur():
    """Adept's open ascent takes 5x T: Triumvirat (2x ?) and Treueschwur (2x T) make 4 (version 4: 5). Versions
    5-17's Triumvirat (from version 18 on it delivers 1x T and 1x ?)."""
    hand = ["Triumvirat", "Treueschwur"]
    sc = Scenario([{"rank": "I", "plus6": True, "hand": hand, "deck": FILL}, {"deck": FILL}], version=17)
    assert not sc.usable(0, "Adept", 1)
    sc = Scenario([{"rank": "I", "plus6": True, "hand": hand + ["Gehorsam"], "deck": FILL}, {"deck": FILL}], version=17)
    assert sc.usable(0, "Adept", 1)


def test_version_4_matches_keep_triumvirat_208_and_new_decks_take_308():
    old = PLUGIN.setup_recorded("4", 2, {}, 5, [{"deck": hammer_deck_with(208, 4)}, {"deck": "starter:buch"}])
    assert old["v"] == 4 and 208 in old["ci"]
    assert 37 in decks.starter("hammer", 5)["pfad"] and decks.starter("hammer", 5) == decks.starter("hammer", 4)
    with pytest.raises(decks.DeckError, match="old version"):
        decks.validate(hammer_deck_with(208))
    # on the version-14 starter: from version 15 on every starter holds Triumvirat (at most once)
    assert decks.validate(hammer_deck_with(308, 14), 17)["cards"].count(308) == 1
