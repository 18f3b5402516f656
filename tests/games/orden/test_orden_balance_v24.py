"""Data version 24 — Schwert's starter without a third Kraft.

On version 23 Schwert won 28.3 % and Hammer 37.8 % of 4-player tables (1,200 games; fair 33.3). In 400-game screens
on common seeds the Schwert starter without a third Kraft brought the three paths within 3 points of fair (30.8 / 33.0
/ 36.2 %), where Hammer's second Werkzeug back, a Mächtige Statur out or Turnier for a Waffenübung did not. Version 24
deals that list; Hammer and Buch keep theirs, the cards and rules are those of version 22, and matches of version 23
keep their starters."""
from collections import Counter

from orden_scenario import starter_names

from games.orden import decks as D
from games.orden.plugin import PLUGIN

PATHS = ("schwert", "hammer", "buch")


def names(path, v):
    return Counter(starter_names(path, v))


def test_only_schwert_changes_and_only_by_a_kraft():
    assert names("schwert", 23) - names("schwert", 24) == Counter({"Kraft": 1})
    assert names("schwert", 24) - names("schwert", 23) == Counter()
    for path in ("hammer", "buch"):
        assert D.starter(path, 24) == D.starter(path, 23), path
    sizes = {p: len(D.resolve(f"starter:{p}", 24)["cards"]) for p in PATHS}
    assert sizes == {"schwert": 30, "hammer": 35, "buch": 34}


def test_schwert_keeps_its_contest():
    # two Kraft (its contest, K counted against every rival), three Mächtige Statur and the Waffenübung stay
    deck = D.starter("schwert", 24)
    assert D.validate(deck, 24)
    assert deck["pfad"] == D.starter("schwert", 23)["pfad"]
    held = names("schwert", 24)
    assert (held["Kraft"], held["Mächtige Statur"], held["Waffenübung"]) == (2, 3, 1)


def test_version_23_matches_keep_their_starters():
    decks = [{"deck": "starter:schwert"}, {"deck": "starter:hammer"}, {"deck": "starter:buch"}]
    old = PLUGIN.setup_recorded("23", 3, {}, 5, decks)
    new = PLUGIN.setup_recorded("24", 3, {}, 5, decks)
    assert old["v"] == 23 and new["v"] == 24
    assert len(old["ci"]) - len(new["ci"]) == 1
    kraft = D.current_no("Kraft", 24)
    assert old["ci"].count(kraft) - new["ci"].count(kraft) == 1
