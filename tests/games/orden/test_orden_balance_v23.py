"""Data version 23 — thin starters.

On version 22 the harness's search found the Hammer starter without IX+ and eight cards ("thin-hammer-33",
33 cards): 63.7 / 72.2 / 72.5 % against the Schwert / Hammer / Buch starters, and the Buch starter with the same
kind of cut won 73.0 % against its own list. The starters were too thick, not one card too strong. Version 23
deals every starter without a Gehorsam, Mysterium der Flamme, Ordensregel and path cards (Schwert seven with its
MENTOR, Hammer three, Buch five), IX+ kept. The cards and rules are those of version 22, and matches of
version 22 keep their starters."""
from collections import Counter

from orden_scenario import starter_names

from games.orden import decks as D
from games.orden.plugin import PLUGIN

PATHS = ("schwert", "hammer", "buch")
COMMON_CUT = Counter({"Gehorsam": 1, "Mysterium der Flamme": 1, "Ordensregel": 1})
CUT = {
    "schwert": COMMON_CUT + Counter({"Anwerber Alfred": 1, "Kraft": 1, "Mächtige Statur": 1, "Waffenübung": 1,
                                     "Turnier": 1, "Kampfgefährte": 1, "Ruf zu den Waffen": 1}),
    "hammer": COMMON_CUT + Counter({"Meisterin Hedwig": 1, "Silberling": 1, "Werkzeug": 1}),
    "buch": COMMON_CUT + Counter({"Bibliothekarin Berta": 1, "Schriftrolle": 1, "Foliant": 1, "Studium": 1,
                                  "Recherche": 1}),
}


def names(path, v):
    return Counter(starter_names(path, v))


def test_every_starter_loses_its_cut_and_gains_nothing():
    for path in PATHS:
        assert names(path, 22) - names(path, 23) == CUT[path], path
        assert names(path, 23) - names(path, 22) == Counter(), path
    sizes = {p: len(D.resolve(f"starter:{p}", 23)["cards"]) for p in PATHS}
    assert sizes == {"schwert": 31, "hammer": 35, "buch": 34}


def test_what_every_starter_keeps():
    # IX+ and VI+ stay in the Pfad; the seat-order Einspruch, both Gnade, the path's BURG and its remaining MENTOR
    # (Schwert has none left: its Kraft) stay in the deck
    keeps = {"schwert": ("Burg Falkenstein", "Kraft"), "hammer": ("Burg Eisenfels", "Zunftmeister Konrad"),
             "buch": ("Klosterburg", "Magister Gregor")}
    for path in PATHS:
        deck = D.starter(path, 23)
        assert D.validate(deck, 23)
        assert deck["pfad"] == D.starter(path, 22)["pfad"], path
        held = names(path, 23)
        assert held["Einspruch"] == 1 and held["Gnade"] == 2, path
        assert all(held[name] >= 1 for name in keeps[path]), path
    assert names("schwert", 23)["Kraft"] == 3 and names("hammer", 23)["Goldbarren"] == 3


def test_no_card_changed_only_the_lists():
    for path in PATHS:
        assert set(D.starter(path, 23)["cards"]) <= set(D.starter(path, 22)["cards"]), path


def test_version_22_matches_keep_their_starters():
    decks = [{"deck": "starter:schwert"}, {"deck": "starter:hammer"}, {"deck": "starter:buch"}]
    old = PLUGIN.setup_recorded("22", 3, {}, 5, decks)
    new = PLUGIN.setup_recorded("23", 3, {}, 5, decks)
    assert old["v"] == 22 and new["v"] == 23
    assert len(old["ci"]) - len(new["ci"]) == 10 + 6 + 8
    geh = D.current_no("Gehorsam", 23)
    assert old["ci"].count(geh) - new["ci"].count(geh) == 3
