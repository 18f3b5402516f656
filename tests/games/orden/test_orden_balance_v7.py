"""Data version 7 — Hammer led and Buch trailed at four players.

On version 6 the 4-player table (600 games, lookahead pilot) gave Hammer +4.5 and Buch -3.8 points
against fair; the first 300 of those games +6.3 and -7.0 (bench/run.py orden compare --seeds 300 table:4).
Hammer pays its ascents from the hand, so the Schwert's blows at the Auslage (Ritter's tilt,
Belagerung) hit it least and Buch, whose ascents count the W cards it owns, most; and Der Zehnt
lowered every opponent's HANDLIMIT, three hands at four players. Three cards change:
- Der Zehnt (137 → 337) lowers the others' HANDLIMIT only while its owner is behind (a tithe for the
  one who trails, like Burg Eisenfels's ban);
- Zunftbrief (135 → 335) removes itself when it shields (a one-off, like the preventers of version 6);
- Lehrer (31 → 43) ascends with 3 W cards owned, not 4 (one blow at the Auslage less to undo).
A match set up under version 6 keeps its cards."""
import pytest
from orden_scenario import CS, Scenario, no_of

from games.orden import decks
from games.orden.plugin import PLUGIN

FILL = ["Demut"] * 10
NEW = {"Der Zehnt": (137, 337), "Zunftbrief": (135, 335), "Lehrer": (31, 43)}


def test_new_numbers_and_the_old_ones_retired():
    for name, (old, new) in NEW.items():
        assert no_of(name, 7) == new and CS.cards[old].until == 6 and CS.cards[new].since == 7, name


@pytest.mark.parametrize("owner_rank,hand_limit", [("V", 6), ("VI", 7)])
def test_der_zehnt_lowers_the_others_handlimit_only_while_its_owner_is_behind(owner_rank, hand_limit):
    sc = Scenario([{"path": "hammer", "rank": owner_rank, "auslage": ["Der Zehnt"], "deck": FILL},
                   {"path": "buch", "rank": "VI", "deck": FILL},
                   {"path": "schwert", "rank": "IV", "deck": FILL}])
    assert sc.limits(1)["hand"] == sc.limits(2)["hand"] == hand_limit  # (rank VI is not behind rank VI)
    bare = Scenario([{"path": "hammer", "rank": owner_rank, "deck": FILL}, {"path": "buch", "rank": "VI", "deck": FILL},
                     {"path": "schwert", "rank": "IV", "deck": FILL}])
    assert sc.limits(0)["hand"] == bare.limits(0)["hand"]  # its owner's own limit is untouched


def test_zunftbrief_shields_once_and_is_removed():
    sc = Scenario([{"path": "schwert", "rank": "IV", "auslage": ["Mächtige Statur", "Kraft"], "deck": FILL},
                   {"path": "hammer", "hand": ["Zunftbrief", "Silberling"], "deck": FILL}])
    sc.activate(0, "Kraft", 0)
    assert sc.to_move() == [1]
    sc.react(1, "Zunftbrief", 1)
    assert "prevented" in sc.event_types()
    assert sc.zone(1, "hand") == ["Silberling"] and sc.zone(1, "aussen") == ["Zunftbrief"]
    assert sc.zone(1, "ablage") == []


@pytest.mark.parametrize("w_cards,can", [(2, False), (3, True)])
def test_lehrer_ascends_with_three_w_cards_owned(w_cards, can):
    sc = Scenario([{"path": "buch", "rank": "V", "auslage": ["Schriftrolle"] * w_cards,
                    "hand": ["Treueschwur", "Schriftrolle", "Schriftrolle"], "deck": FILL},
                   {"path": "hammer", "deck": FILL}], version=7)  # version 9's Lehrer counts W owned
    assert sc.usable(0, "Lehrer", 1) is can
    if can:
        sc.activate(0, "Lehrer", 1, pay=["Treueschwur", "Schriftrolle", "Schriftrolle"])
        assert sc.rank(0) == "VI"


def test_version_6_matches_keep_their_cards_and_new_decks_take_version_7():
    old = PLUGIN.setup_recorded("6", 2, {}, 5, [{"deck": "starter:hammer"}, {"deck": "starter:buch"}])
    assert old["v"] == 6 and {137, 135, 31} <= set(old["ci"])
    assert not {337, 335, 43} & set(old["ci"])
    new = PLUGIN.setup_recorded("7", 2, {}, 5, [{"deck": "starter:hammer"}, {"deck": "starter:buch"}])
    assert new["v"] == 7 and {337, 335, 43} <= set(new["ci"])
    assert 31 in decks.starter("buch", 6)["pfad"] and 43 in decks.starter("buch", 7)["pfad"]
    deck = decks.starter("hammer")
    with pytest.raises(decks.DeckError, match="old version"):
        decks.validate({**deck, "cards": deck["cards"] + [137]})  # the old Der Zehnt (the lean starter holds none)
