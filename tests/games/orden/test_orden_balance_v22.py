"""Data version 22 — Triumvirat delivers from RANG VI on.

A search on a first version 18 found `lean-hammer-gold` (the Hammer starter without IX+, no Werkzeug, a fourth Goldbarren,
Zoll and Triumvirat); on version 21 it won 65.2 % of 400 games against the best starter (Buch). Its Triumvirat
carried it (with a Werkzeug in its place: 49.0 %), and the early T did: a Triumvirat that delivers 1x T at every
rank and 1x T and 1x ? from RANG VI won 59.5, one that delivers nothing before RANG VI 52.0 (same seeds).
Triumvirat 408 → 508: „Liefert 1x T und 1x ?, wenn Du den RANG VI+ in Deinem Pfad hast und Du mindestens RANG VI
hast.“ The condition of the seed's example stays; the ranks that ask for T and ? at once (VI, VI+, VII and VIII
ask for T) come after VI. No starter holds the card; matches of version 21 keep card 408."""
from orden_scenario import Scenario, hammer_deck_with, no_of, starter_names

from games.orden import decks as D
from games.orden import rules as R
from games.orden.catalog import cardset
from games.orden.plugin import PLUGIN
from games.orden.text import card_text

CS = cardset()
FILL = ["Demut"] * 10


def delivered(rank, plus6=True, version=None):
    sc = Scenario([{"path": "hammer", "rank": rank, "plus6": plus6, "hand": ["Triumvirat"], "deck": FILL},
                   {"deck": FILL}], version=version)
    card = R.C[no_of("Triumvirat", version)]
    return R.deliveries(sc.state, 0, card, "hand")


def test_the_card_and_its_text():
    assert no_of("Triumvirat") == 508 and no_of("Triumvirat", 21) == 408
    assert CS.cards[408].until == 21 and CS.cards[508].since == 22
    assert CS.cards[508].liefert[0].props == CS.cards[408].liefert[0].props and CS.cards[508].count == 1
    assert card_text(CS.cards[508], "de") == [
        "Liefert 1x T und 1x ?, wenn Du den RANG VI+ in Deinem Pfad hast und Du mindestens RANG VI hast."]


def test_from_rank_vi_with_vi_plus_in_the_pfad():
    for rank in ("0", "III", "IV", "V"):
        assert delivered(rank) == [], rank  # the T ranks: nothing
        assert delivered(rank, version=21) == [{"?": 1, "T": 1}], rank  # version 21: from the start
    for rank in ("VI", "VI+", "VII", "IX"):
        assert delivered(rank) == [{"?": 1, "T": 1}], rank  # VI+ in the Pfad, on top or not (the seed)
    assert delivered("VII", plus6=False) == []


def test_it_pays_the_vi_plus_ascent_with_a_t():
    # Komtur (Hammer VI+): 6x V owned, 2x T and 4x V from the hand
    def can(hand):
        sc = Scenario([{"path": "hammer", "rank": "VI+", "plus6": True, "hand": hand, "deck": FILL,
                        "auslage": ["Goldbarren", "Goldbarren", "Goldbarren"]}, {"deck": FILL}])
        return sc.usable(0, "Komtur", 2)
    assert can(["Triumvirat", "Treueschwur", "Goldbarren", "Silberling"])  # T + ? (as V) + 2x T + 3x V
    assert not can(["Demut", "Treueschwur", "Goldbarren", "Silberling"])  # a T card in its place: 3x V only


def test_the_starters_and_version_21_matches():
    for path in ("schwert", "hammer", "buch"):
        assert starter_names(path, 22) == starter_names(path, 21), path
        assert D.starter(path, 22) == D.starter(path, 21), path  # no starter holds Triumvirat
    old = PLUGIN.setup_recorded("21", 2, {}, 5, [{"deck": hammer_deck_with(408, 21)}, {"deck": "starter:buch"}])
    assert old["v"] == 21 and 408 in old["ci"] and 508 not in old["ci"]
    assert D.validate(hammer_deck_with(508))["cards"].count(508) == 1
