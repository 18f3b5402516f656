"""Data version 16 — the T back without Triumvirat.

Version 15 gave every lean starter a Treueschwur and Triumvirat. Triumvirat delivers its 2x ? only with
VI+ in the Pfad, so a deck that drops VI+ also kills that card: the rank rows (dropped vs kept) fell to
39.5 / 33.0 / 37.5 % for Schwert / Hammer / Buch, outside 40–60 (version 3 had taken Triumvirat out of
the starters for the same reason). Version 16 gives a fourth Gehorsam (2x T or ?, whatever the Pfad)
instead; screened on 200 paired games, the VI+ rows came to 55.5 / 51.0 / 49.0. The cards and rules are
those of version 13; matches of version 15 keep their starters."""
from collections import Counter

from orden_scenario import starter_names

from games.orden import decks as D
from games.orden.catalog import cardset
from games.orden.plugin import PLUGIN

PATHS = ("schwert", "hammer", "buch")


def names(path, v):
    return Counter(starter_names(path, v))


def test_gehorsam_takes_triumvirats_place_and_nothing_else_changes():
    for path in PATHS:
        new, old = names(path, 16), names(path, 15)
        assert new - old == Counter({"Gehorsam": 1}) and old - new == Counter({"Triumvirat": 1}), path
        assert new["Triumvirat"] == 0 and new["Gehorsam"] == 4 and new["Treueschwur"] == 3, path


def test_no_current_starter_holds_a_card_whose_delivery_wants_an_optional_rank():
    # the rank rows measure dropping VI+ or IX+: a starter card that delivers only with that rank
    # would make the row measure the card too
    cs = cardset().cards
    for path in PATHS:
        tied = {cs[no].name.de for no in D.starter(path)["cards"]
                if any(c.kind == "rank_in_pfad" for d in cs[no].liefert for c in d.conditions)}
        assert not tied, (path, tied)


def test_the_new_starters_are_legal_with_the_same_pfad_and_sizes():
    sizes = {p: len(D.resolve(f"starter:{p}", 16)["cards"]) for p in PATHS}  # what a version-16 match deals
    assert sizes == {"schwert": 40, "hammer": 40, "buch": 41}
    for path in PATHS:
        deck = D.starter(path, 16)
        assert D.validate(deck, 16)
        assert deck["pfad"] == D.starter(path, 15)["pfad"]
        assert len(deck["cards"]) == len(D.starter(path, 15)["cards"]), path


def test_version_15_matches_keep_their_triumvirat():
    decks = [{"deck": "starter:hammer"}, {"deck": "starter:buch"}]
    old = PLUGIN.setup_recorded("15", 2, {}, 5, decks)
    new = PLUGIN.setup_recorded("16", 2, {}, 5, decks)
    assert old["v"] == 15 and new["v"] == 16
    tri, geh = D.current_no("Triumvirat", 15), D.current_no("Gehorsam", 16)
    assert old["ci"].count(tri) == 2 and new["ci"].count(tri) == 0
    assert new["ci"].count(geh) - old["ci"].count(geh) == 2
