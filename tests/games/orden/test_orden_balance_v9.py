"""Data version 9 — the two decks version 8's searches found.

On version 8 a Hammer deck with a second BURG (Klosterburg for a Silberling) won 68 % of 200 paired
games against its own starter (bench/run.py orden compare --seed 1000 --seeds 100
"mod:hammer:-Silberling,+Klosterburg:hammer"; with Burg Falkenstein 62 %, with Ordensburg, no HANDLIMIT+1,
47.5 %): only one BURG lies out at a time (the seed's rule for every TYPE), but a second castle with
HANDLIMIT+1 comes out sooner, and again after a Belagerung, for a path whose Schmied and Das Fundament read
a BURG. A deck now holds at most one BURG; which castle is the choice.
And a Buch deck without VI+ and without its two MENTORs won 65-68 % against every starter: Student and
Lehrer counted W *cards*, which a deck of W-heavy cards meets without the MENTORs, and Professor's
cheap ascent did not care whether the deck kept VI+. Three cards change:
- Student (30 → 45) ascends with 3x W owned (not 3 W cards);
- Lehrer (43 → 46) ascends with 5x W owned (not 3 W cards; 4x W left Buch 2.5 points over fair at 4
  players and Schwert 4.5 under, 600 games);
- Professor (44 → 47): the cheap ascent (a BURG, 2x T + 3x W from the hand) wants VI+ still in the
  Pfad; without it a BURG, 6x W owned and 2x T + 4x W (version 7's price).
A match set up under version 8 keeps its cards and its decks. (Version 10 renumbered Student and
Lehrer again: test_orden_balance_v10.py; the scenarios below play version 9's.)"""
import pytest
from orden_scenario import CS, Scenario, no_of

from games.orden import decks
from games.orden.plugin import PLUGIN

FILL = ["Demut"] * 10
NEW = {"Student": (30, 45), "Lehrer": (43, 46), "Professor": (44, 47)}


def test_new_numbers_and_the_old_ones_retired():
    for name, (old, new) in NEW.items():
        assert no_of(name, 9) == new and no_of(name, 8) == old, name
        assert CS.cards[old].until == 8 and CS.cards[new].since == 9, name


def with_second_burg(path="hammer", burg="Klosterburg", out="Silberling"):
    deck = decks.starter(path)
    cards = list(deck["cards"])
    cards[cards.index(decks.current_no(out))] = decks.current_no(burg)
    return {**deck, "cards": cards}


def test_a_deck_holds_one_burg_and_the_refusal_names_them():
    with pytest.raises(decks.DeckError) as e:
        decks.validate(with_second_burg())
    assert "at most one BURG" in str(e.value) and "Cloister Castle" in e.value.en and "Ironrock Castle" in e.value.en
    assert "höchstens eine BURG" in e.value.de and "Klosterburg" in e.value.de
    # any one BURG is fine: the choice of castle stays
    for burg in ("Burg Falkenstein", "Klosterburg", "Ordensburg"):
        assert decks.validate(with_second_burg(burg=burg, out="Burg Eisenfels"))


def test_the_search_and_the_designer_tools_only_add_what_a_deck_may_hold():
    cards = decks.starter("hammer")["cards"]
    assert not decks.may_add(cards, decks.current_no("Klosterburg"))
    assert decks.may_add(cards, decks.current_no("Werkzeug"))
    without = [no for no in cards if no != decks.current_no("Burg Eisenfels")]
    assert decks.may_add(without, decks.current_no("Klosterburg"))
    assert decks.may_add(cards, decks.current_no("Klosterburg"), 8)  # version 8 had no such rule


def test_version_8_matches_keep_their_decks_and_cards():
    two = {**with_second_burg(), "pfad": decks.starter("hammer", 8)["pfad"]}
    two["cards"] = [decks.current_no(CS.cards[no].name.de, 8) for no in two["cards"]]
    assert decks.validate(two, 8)  # a version-8 set-up with two BURGs still replays
    old = PLUGIN.setup_recorded("8", 2, {}, 5, [{"deck": "starter:buch"}, {"deck": two}])
    assert old["v"] == 8 and {30, 43, 44} <= set(old["ci"]) and not {45, 46, 47} & set(old["ci"])
    new = PLUGIN.setup_recorded("9", 2, {}, 5, [{"deck": "starter:buch"}, {"deck": "starter:hammer"}])
    assert new["v"] == 9 and {45, 46, 47} <= set(new["ci"]) and not {30, 43, 44} & set(new["ci"])
    deck = decks.starter("buch")
    with pytest.raises(decks.DeckError, match="old version"):
        decks.validate({**deck, "pfad": [44 if no == 47 else no for no in deck["pfad"]]})


@pytest.mark.parametrize("auslage,can", [(["Foliant", "Schriftrolle"], True),  # 3x W in two cards
                                         (["Schriftrolle", "Schriftrolle"], False)])
def test_student_ascends_with_three_w_owned(auslage, can):
    sc = Scenario([{"path": "buch", "rank": "IV", "auslage": auslage, "hand": ["Treueschwur"], "deck": FILL},
                   {"path": "hammer", "deck": FILL}], version=9)
    assert sc.usable(0, "Student", 1) is can
    if can:  # version 8 asked for 3 cards that deliver W
        sc.activate(0, "Student", 1, pay=["Treueschwur"])
        assert sc.rank(0) == "V"


@pytest.mark.parametrize("auslage,can", [(["Foliant", "Foliant", "Schriftrolle"], True),  # 5x W in three cards
                                         (["Magister Gregor", "Foliant", "Schriftrolle"], True),  # doubled: 6x
                                         (["Foliant", "Foliant"], False),  # 4x W
                                         (["Schriftrolle"] * 3, False)])  # 3 W cards were enough in version 8
def test_lehrer_ascends_with_five_w_owned(auslage, can):
    hand = ["Treueschwur", "Schriftrolle", "Schriftrolle"]
    sc = Scenario([{"path": "buch", "rank": "V", "auslage": auslage, "hand": hand, "deck": FILL},
                   {"path": "hammer", "deck": FILL}], version=9)
    assert sc.usable(0, "Lehrer", 1) is can
    if can:
        sc.activate(0, "Lehrer", 1, pay=hand)
        assert sc.rank(0) == "VI"


HAND = ["Treueschwur", "Schriftrolle", "Schriftrolle", "Schriftrolle"]  # 2x T + 3x W


@pytest.mark.parametrize("plus6,can", [(True, True), (False, False)])
def test_professors_cheap_ascent_wants_vi_plus_in_the_pfad(plus6, can):
    sc = Scenario([{"path": "buch", "rank": "VI", "plus6": plus6, "auslage": ["Klosterburg"], "hand": HAND,
                    "deck": FILL}, {"path": "schwert", "deck": FILL}])
    assert sc.usable(0, "Professor", 1) is can
    if can:
        sc.activate(0, "Professor", 1, pay=HAND)
        assert sc.rank(0) == "VI+"


def test_without_vi_plus_professor_pays_version_7s_price():
    hand = HAND + ["Schriftrolle"]  # 2x T + 4x W
    owned = ["Klosterburg", "Foliant", "Foliant"]  # a BURG and 6x W owned
    sc = Scenario([{"path": "buch", "rank": "VI", "auslage": owned, "hand": hand, "deck": FILL},
                   {"path": "schwert", "deck": FILL}])
    assert sc.usable(0, "Professor", 1) is False and sc.usable(0, "Professor", 2) is True
    sc.activate(0, "Professor", 2, pay=hand)
    assert sc.rank(0) == "VII"
    short = Scenario([{"path": "buch", "rank": "VI", "auslage": owned[:2], "hand": hand, "deck": FILL},
                      {"path": "schwert", "deck": FILL}])
    assert short.usable(0, "Professor", 2) is False  # 4x W owned is not 6x
