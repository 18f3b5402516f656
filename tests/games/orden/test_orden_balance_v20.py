"""Data version 20 — Schwert's fourth Gehorsam back.

Since version 19 the bots keep their preventers for the ascents from RANG IX on. With that pilot Schwert reached
RANG IV 1.4 rounds after Hammer (its starter held the fewest cards that deliver T, which every rank up to III
asks) and won 29.2 / 28.3 / 25.2 % of the 2/3/4-player tables on version 19 (fair 33.3). Version 20 gives the
Schwert starter back the Gehorsam version 17 took (40 cards, version 16's list); Hammer and Buch keep their
lists, and the cards and rules are those of version 19. Matches of version 19 keep their starters."""
from collections import Counter

from orden_scenario import starter_names

from games.orden import decks as D
from games.orden.plugin import PLUGIN

PATHS = ("schwert", "hammer", "buch")


def names(path, v):
    return Counter(starter_names(path, v))


def test_only_schwert_gains_one_gehorsam():
    assert names("schwert", 20) - names("schwert", 19) == Counter({"Gehorsam": 1})
    assert names("schwert", 19) - names("schwert", 20) == Counter()
    assert names("schwert", 20) == names("schwert", 16)
    for path in ("hammer", "buch"):
        assert names(path, 20) == names(path, 19), path


def test_the_new_starters_are_legal_and_what_a_new_match_deals():
    sizes = {p: len(D.resolve(f"starter:{p}", 20)["cards"]) for p in PATHS}
    assert sizes == {"schwert": 40, "hammer": 40, "buch": 41}
    for path in PATHS:
        deck = D.starter(path, 20)
        assert D.validate(deck, 20)
        assert deck["pfad"] == D.starter(path, 19)["pfad"], path


def test_version_19_matches_keep_their_three_gehorsam():
    decks = [{"deck": "starter:schwert"}, {"deck": "starter:buch"}]
    old = PLUGIN.setup_recorded("19", 2, {}, 5, decks)
    new = PLUGIN.setup_recorded("20", 2, {}, 5, decks)
    assert old["v"] == 19 and new["v"] == 20
    geh = D.current_no("Gehorsam", 20)
    assert old["ci"].count(geh) == 7 and new["ci"].count(geh) == 8
    assert len(new["ci"]) - len(old["ci"]) == 1
