"""Issue 24: data version 18 — an Einspruch for a Gehorsam in every starter.

On version 17 the start player won 38.5 % of 3-player tables (fair 33.3, the goal ±5): the game ends
the moment a rank X comes on top, and only each path's own reaction could stop a leader's last ascent.
Version 18 gives every starter an Einspruch (from RANK IV: prevent an ascent for 2x T) for one
Gehorsam; the sizes stay (39 / 40 / 41). The cards and rules are those of version 13; matches of
version 17 keep their starters."""
from collections import Counter

from orden_scenario import starter_names

from games.orden import decks as D
from games.orden.plugin import PLUGIN

PATHS = ("schwert", "hammer", "buch")


def names(path, v):
    return Counter(starter_names(path, v))


def test_every_starter_trades_one_gehorsam_for_an_einspruch():
    for path in PATHS:
        assert names(path, 17) - names(path, 18) == Counter({"Gehorsam": 1}), path
        assert names(path, 18) - names(path, 17) == Counter({"Einspruch": 1}), path
        assert names(path, 18)["Einspruch"] == 1


def test_the_new_starters_are_legal_and_what_a_new_match_deals():
    sizes = {p: len(D.playable(f"starter:{p}")["cards"]) for p in PATHS}  # what a new match deals
    assert D.CURRENT == 18 and sizes == {"schwert": 39, "hammer": 40, "buch": 41}
    for path in PATHS:
        deck = D.starter(path, 18)
        assert D.validate(deck, 18)
        assert deck["pfad"] == D.starter(path, 17)["pfad"], path


def test_version_17_matches_keep_their_gehorsam():
    decks = [{"deck": "starter:schwert"}, {"deck": "starter:hammer"}]
    old = PLUGIN.setup_recorded("17", 2, {}, 5, decks)
    new = PLUGIN.setup_recorded("18", 2, {}, 5, decks)
    assert old["v"] == 17 and new["v"] == 18
    geh, ein = D.current_no("Gehorsam", 18), D.current_no("Einspruch", 18)
    assert old["ci"].count(geh) == 7 and new["ci"].count(geh) == 5
    assert old["ci"].count(ein) == 0 and new["ci"].count(ein) == 2
    assert len(old["ci"]) == len(new["ci"])
