"""Data version 15 — the lean starters with T back.

Every Pfad asks for T up to RANG III and 2x T at VI / VI+. The lean cut of version 14 took Demut x3 from
every starter, so each held 8 cards that deliver T (the 48-card starters: 11), and the harness's search
found the lean Hammer starter with a third Treueschwur and Triumvirat (2x ? with VI+ in the Pfad), without
IX+ and with a Zoll for a Vision: 70.5 / 75.8 / 70.0 % of 400 fresh games against Schwert / Hammer / Buch.
Each starter gains a Treueschwur and Triumvirat; Buch, the weakest with them (46.5 % of 200 paired games
against Schwert), a Demut besides (52.0). The cards and rules are those of version 13; a match or deck of
version 14 keeps its 38-card starters."""
from collections import Counter

from orden_scenario import starter_names

from games.orden import decks as D
from games.orden.catalog import cardset
from games.orden.plugin import PLUGIN

PATHS = ("schwert", "hammer", "buch")
T_BACK = Counter({"Treueschwur": 1, "Triumvirat": 1})
ADDED = {"schwert": T_BACK, "hammer": T_BACK, "buch": T_BACK + Counter({"Demut": 1})}


def names(path, v):
    return Counter(starter_names(path, v))


def test_each_lean_starter_gains_its_t_back_and_nothing_else():
    for path in PATHS:
        new, lean = names(path, 15), names(path, 14)
        assert new - lean == ADDED[path] and not lean - new, path
        assert new["Treueschwur"] == 3 and new["Triumvirat"] == 1, path


def test_the_new_starters_are_legal_decks_with_the_same_pfad():
    sizes = {p: len(D.starter(p, 15)["cards"]) for p in PATHS}
    assert sizes == {"schwert": 40, "hammer": 40, "buch": 41}
    for path in PATHS:
        assert D.validate(D.starter(path, 15), 15) and D.starter(path, 15)["pfad"] == D.starter(path, 14)["pfad"]


def test_t_delivering_cards_are_back_above_the_lean_cut():
    cs = cardset().cards

    def t_cards(path, v):
        return sum(1 for no in D.starter(path, v)["cards"]
                   if any(prop == "T" for d in cs[no].liefert for prop, _ in d.props))
    for path in PATHS:
        assert t_cards(path, 15) - t_cards(path, 14) == (2 if path == "buch" else 1), path


def test_version_14_matches_keep_their_38_card_starters():
    decks = [{"deck": "starter:schwert"}, {"deck": "starter:buch"}]
    old = PLUGIN.setup_recorded("14", 2, {}, 5, decks)
    new = PLUGIN.setup_recorded("15", 2, {}, 5, decks)
    assert old["v"] == 14 and new["v"] == 15
    assert len(new["ci"]) - len(old["ci"]) == 5  # Schwert two cards more, Buch three
