"""Data version 14 — lean starters, 38 cards instead of 48.

On version 13 the harness's search found a 35-card Hammer deck (orden_harness.KNOWN_DECKS "thin-hammer")
that won 71.0 / 73.8 / 67.0 % of 400 fresh games against Schwert / Hammer / Buch with the starter's own
Pfad and no card of its own: density (9x E in 35 cards; the starter: 11x E in 48). The Hammer starter
without ten cards beat the 48-card one 76.5 % of 200 games, and thin-hammer was even against it (49.5 %):
the thick starters were the weak decks. Each starter drops the same six common cards (Demut x3, Intrige,
Einspruch, a Gebet) and four of its path's; Schwert keeps its four Kraft (without two of them it won 25.0 %
of 300 four-player games). The cards and rules are those of version 13; a match or deck of version 13
keeps its 48-card starters."""
from collections import Counter

from orden_scenario import starter_names

from games.orden import decks as D
from games.orden.plugin import PLUGIN

def names(path, v):
    return Counter(starter_names(path, v))


COMMON_DROPS = Counter({"Demut": 3, "Intrige": 1, "Einspruch": 1, "Gebet": 1})
PATH_DROPS = {"schwert": Counter({"Mentor Michael": 1, "Kampfgefährte": 1, "Waffenübung": 1, "Belagerung": 1}),
              "hammer": Counter({"Silberling": 2, "Goldbarren": 1, "Der Zehnt": 1}),
              "buch": Counter({"Schriftrolle": 2, "Foliant": 1, "Disputation": 1})}


def test_each_starter_drops_six_common_cards_and_four_of_its_paths():
    for path, own in PATH_DROPS.items():
        lean, full = names(path, 14), names(path, 13)
        assert full - lean == COMMON_DROPS + own and not lean - full, path
        assert sum(lean.values()) == 38 and sum(full.values()) == 48


def test_the_lean_starters_keep_the_opening_and_the_graces():
    for path in PATH_DROPS:
        lean = names(path, 14)
        # the seed's opening Einladung -> Das Versprechen, the catch-up ascents, no Demut left
        assert lean["Einladung"] == lean["Das Versprechen"] == 1 and lean["Gnade"] == 2, path
        assert lean["Demut"] == 0
    assert names("schwert", 14)["Kraft"] == 4  # K on display: Schwert's contests
    assert all(D.validate(D.starter(p, 14), 14) for p in PATH_DROPS)  # legal decks of their version
    assert all(len(D.starter(p, 14)["cards"]) == 38 for p in PATH_DROPS)


def test_the_pfad_is_unchanged():
    for path in PATH_DROPS:
        assert D.starter(path, 14)["pfad"] == D.starter(path, 13)["pfad"]


def test_version_13_matches_keep_their_48_card_starters():
    decks = [{"deck": "starter:hammer"}, {"deck": "starter:buch"}]
    old = PLUGIN.setup_recorded("13", 2, {}, 5, decks)
    new = PLUGIN.setup_recorded("14", 2, {}, 5, decks)
    assert old["v"] == 13 and new["v"] == 14
    assert len(old["ci"]) - len(new["ci"]) == 20  # ten cards fewer in each of the two decks
