"""Data version 10 — the Buch deck that drops VI+ and both MENTORs.

On version 9 a Buch deck without VI+ (Dekan), without Bibliothekarin Berta and Magister Gregor, with
Treueschwur, Auftrag and Erlösung for them, won 66.5 % of 400 games against the Hammer starter (the
best starter) and 70.0 / 67.0 % against Schwert / Buch. Taken apart on 200 paired games against
Hammer: dropping VI+ alone 51.5 %, dropping the MENTORs with VI+ kept 47.5 %, both 62-63 %. The
MENTORs (W doubled) served only Dekan's route (6x W owned), so a deck that dropped VI+ dropped them
too and ran a Pfad one rank shorter without spending two plays on them. Now Student's and Lehrer's
cheap ascents want a MENTOR in the Auslage besides the W owned — a student needs a teacher:
- Student (45 → 48): a MENTOR and 3x W owned, then 2x T from the hand;
- Lehrer (46 → 49): a MENTOR and 5x W owned, then 2x T + 2x W from the hand. Bibliothekarin Berta
  leaves at RANG V, so it is Magister Gregor (until RANG VII) who carries a Lehrer.
Screened (bench/run.py orden compare --seed 1000 --seeds 100, 200 games against Hammer): the find 55.0 %
(version 9: 63.0), the Buch starter 48.0 % (49.5). A match set up under version 9 keeps its cards."""
import pytest
from orden_scenario import CS, Scenario, no_of

from games.orden import decks
from games.orden.plugin import PLUGIN

FILL = ["Demut"] * 10
NEW = {"Student": (45, 48), "Lehrer": (46, 49)}


def test_new_numbers_and_the_old_ones_retired():
    for name, (old, new) in NEW.items():
        assert no_of(name) == new and no_of(name, 9) == old, name
        assert CS.cards[old].until == 9 and CS.cards[new].since == 10, name


def test_version_9_matches_keep_their_cards():
    old = PLUGIN.setup_recorded("9", 2, {}, 5, [{"deck": "starter:buch"}, {"deck": "starter:hammer"}])
    assert old["v"] == 9 and {45, 46} <= set(old["ci"]) and not {48, 49} & set(old["ci"])
    new = PLUGIN.setup_recorded("10", 2, {}, 5, [{"deck": "starter:buch"}, {"deck": "starter:hammer"}])
    assert new["v"] == 10 and {48, 49} <= set(new["ci"]) and not {45, 46} & set(new["ci"])
    deck = decks.starter("buch")
    with pytest.raises(decks.DeckError, match="old version"):
        decks.validate({**deck, "pfad": [45 if no == 48 else no for no in deck["pfad"]]})


@pytest.mark.parametrize("auslage,can", [(["Bibliothekarin Berta", "Foliant"], True),  # 2x W doubled: 4x
                                         (["Magister Gregor", "Foliant"], True),
                                         (["Foliant", "Schriftrolle"], False),  # 3x W, no MENTOR: enough in v9
                                         (["Bibliothekarin Berta"], False)])  # a MENTOR and no W
def test_student_ascends_with_a_mentor_and_three_w_owned(auslage, can):
    sc = student(auslage)
    assert sc.usable(0, "Student", 1) is can
    if can:
        sc.activate(0, "Student", 1, pay=["Treueschwur"])
        assert sc.rank(0) == "V"


def student(auslage, version=None):
    return Scenario([{"path": "buch", "rank": "IV", "auslage": auslage, "hand": ["Treueschwur"], "deck": FILL},
                     {"path": "hammer", "deck": FILL}], version=version)


def test_version_9s_student_asked_no_mentor():
    assert student(["Foliant", "Schriftrolle"], 9).usable(0, "Student", 1) is True


@pytest.mark.parametrize("auslage,can", [(["Magister Gregor", "Foliant", "Schriftrolle"], True),  # 6x W
                                         (["Foliant", "Foliant", "Schriftrolle"], False),  # 5x W, no MENTOR
                                         (["Magister Gregor", "Foliant"], False)])  # 2x W doubled: 4x
def test_lehrer_ascends_with_a_mentor_and_five_w_owned(auslage, can):
    hand = ["Treueschwur", "Schriftrolle", "Schriftrolle"]
    sc = Scenario([{"path": "buch", "rank": "V", "auslage": auslage, "hand": hand, "deck": FILL},
                   {"path": "hammer", "deck": FILL}])
    assert sc.usable(0, "Lehrer", 1) is can
    if can:
        sc.activate(0, "Lehrer", 1, pay=hand)
        assert sc.rank(0) == "VI"


def test_without_a_mentor_the_dear_ascents_stay():
    # Student's second way (5x W from hand or Auslage) asks no MENTOR: a deck without them is slower, not stuck
    sc = Scenario([{"path": "buch", "rank": "IV", "auslage": ["Foliant", "Foliant"], "hand": ["Schriftrolle"],
                    "deck": FILL}, {"path": "hammer", "deck": FILL}])
    assert sc.usable(0, "Student", 1) is False and sc.usable(0, "Student", 2) is True
    sc.activate(0, "Student", 2, pay=["auslage:Foliant", "auslage:Foliant", "Schriftrolle"])
    assert sc.rank(0) == "V"
