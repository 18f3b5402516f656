"""Data version 8 — Buch trailed at three players.

On version 7 the 3-player table (300 games, lookahead pilot, bench/run.py orden compare --seeds 300 table:3)
gave Schwert 40.0, Hammer 33.0, Buch 27.0 % (fair 33.3). Professor (rank VI) was the dearest rank VI of
the three paths: a BURG, 6x W *owned* and 2x T + 4x W from the hand, where Schmied asks a BURG and
2x T + 3x V, and the Schwert's blows at the Auslage (Ritter's tilt, Belagerung) take the W that
Professor counted. Professor (32 → 44) now ascends with a BURG and 2x T + 3x W from the hand; its own
Aktion (a card back from the Ablage) stays. Same 300 games: 34.7 / 31.7 / 33.7 %.
A match set up under version 7 keeps its cards."""
import pytest
from orden_scenario import CS, Scenario, no_of

from games.orden import decks
from games.orden.plugin import PLUGIN

FILL = ["Demut"] * 10
HAND = ["Treueschwur", "Schriftrolle", "Schriftrolle", "Schriftrolle"]  # 2x T + 3x W


def test_new_number_and_the_old_one_retired():
    assert no_of("Professor", 8) == 44 and CS.cards[32].until == 7 and CS.cards[44].since == 8


@pytest.mark.parametrize("burg,can", [([], False), (["Klosterburg"], True)])
def test_professor_ascends_from_the_hand_with_a_burg_and_no_w_owned(burg, can):
    sc = Scenario([{"path": "buch", "rank": "VI", "auslage": burg, "hand": HAND, "deck": FILL},
                   {"path": "schwert", "deck": FILL}], version=8)  # version 9's wants VI+ in the Pfad
    assert sc.usable(0, "Professor", 1) is can
    if can:  # Klosterburg's 2x W is all the W owned: version 7 asked 6x W owned besides
        sc.activate(0, "Professor", 1, pay=HAND)
        assert sc.rank(0) == "VII"


def test_professor_still_asks_three_w_from_the_hand():
    sc = Scenario([{"path": "buch", "rank": "VI", "auslage": ["Klosterburg", "Foliant", "Foliant"],
                    "hand": ["Treueschwur", "Schriftrolle", "Schriftrolle"], "deck": FILL},
                   {"path": "schwert", "deck": FILL}], version=8)
    assert sc.usable(0, "Professor", 1) is False  # 2x T + 2x W in hand; the Auslage does not pay


def test_version_7_matches_keep_their_cards_and_new_decks_take_version_8():
    old = PLUGIN.setup_recorded("7", 2, {}, 5, [{"deck": "starter:buch"}, {"deck": "starter:hammer"}])
    assert old["v"] == 7 and 32 in old["ci"] and 44 not in old["ci"]
    new = PLUGIN.setup_recorded("8", 2, {}, 5, [{"deck": "starter:buch"}, {"deck": "starter:hammer"}])
    assert new["v"] == 8 and 44 in new["ci"] and 32 not in new["ci"]
    assert 32 in decks.starter("buch", 7)["pfad"] and 44 in decks.starter("buch", 8)["pfad"]
    deck = decks.starter("buch", 8)
    with pytest.raises(decks.DeckError, match="old version"):
        decks.validate({**deck, "pfad": [32 if no == 44 else no for no in deck["pfad"]]})
