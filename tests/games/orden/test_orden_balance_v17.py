"""Data version 17 — Schwert without its fourth Gehorsam.

On version 16 Schwert won 37.8 % of 2-player and 39.5 % of 3-player tables (fair 33.3, the goal ±4).
Version 17 takes one Gehorsam out of the Schwert starter only (39 cards); on the same seeds Schwert
won 30.8 / 35.3 %. Hammer and Buch keep version 16's lists; the cards and rules are those of version
13; matches of version 16 keep their starters."""
from collections import Counter

from orden_scenario import starter_names

from games.orden import decks as D
from games.orden.plugin import PLUGIN

PATHS = ("schwert", "hammer", "buch")


def names(path, v):
    return Counter(starter_names(path, v))


def test_only_schwert_loses_one_gehorsam():
    assert names("schwert", 16) - names("schwert", 17) == Counter({"Gehorsam": 1})
    assert names("schwert", 17) - names("schwert", 16) == Counter()
    assert names("schwert", 17)["Gehorsam"] == 3 and names("schwert", 17)["Treueschwur"] == 3
    for path in ("hammer", "buch"):
        assert names(path, 17) == names(path, 16), path


def test_the_new_starters_are_legal_and_what_a_new_match_deals():
    sizes = {p: len(D.resolve(f"starter:{p}", 17)["cards"]) for p in PATHS}
    assert sizes == {"schwert": 39, "hammer": 40, "buch": 41}
    for path in PATHS:
        deck = D.starter(path, 17)
        assert D.validate(deck, 17)
        assert deck["pfad"] == D.starter(path, 16)["pfad"], path


def test_version_16_matches_keep_their_fourth_gehorsam():
    decks = [{"deck": "starter:schwert"}, {"deck": "starter:hammer"}]
    old = PLUGIN.setup_recorded("16", 2, {}, 5, decks)
    new = PLUGIN.setup_recorded("17", 2, {}, 5, decks)
    assert old["v"] == 16 and new["v"] == 17
    geh = D.current_no("Gehorsam", 17)
    assert old["ci"].count(geh) == 8 and new["ci"].count(geh) == 7
    assert len(old["ci"]) - len(new["ci"]) == 1
