"""Data version 19 — Foliant delivers 2x W or, from RANG VII on, 2x E.

With version 19 the bots prevent a rival's ascent only from RANG IX on (bots.PREVENT_FROM; preventing
earlier lost games in every pairing). With that pilot Buch won 26.3 % of 2-player and 27.8 % of 3-player tables
on version 18 (fair 33.3) and lost at the last two ascents, which ask E and S of every path; a Buch starter held
three Foliants that deliver only W. With the second option, on the same seeds: 32.5 and 34.0 %. The starters keep
their lists (the card is renumbered, 341→441); a match of version 18 keeps card 341."""
import pytest
from orden_scenario import CS, Scenario, no_of, starter_names

from games.orden import decks as D
from games.orden.plugin import PLUGIN
from games.orden.text import card_text

FILL = ["Demut"] * 10
PATHS = ("schwert", "hammer", "buch")


def test_new_number_and_the_old_one_retired():
    assert no_of("Foliant") == 441 and no_of("Foliant", 18) == 341
    assert CS.cards[341].until == 18 and CS.cards[441].since == 19
    old, new = CS.cards[341], CS.cards[441]
    assert old.abilities == new.abilities and old.count == new.count == 4
    assert [dict(d.props) for d in new.liefert] == [{"W": 2}, {"E": 2}] and new.liefert[0] == old.liefert[0]


@pytest.mark.parametrize("rank, version, can", [("VII", None, True), ("VII", 18, False)])
def test_a_foliant_pays_the_masters_e_from_rank_vii_on(rank, version, can):
    # Meister's third rule (VI+ in the Pfad): 2x E and 1x T from the hand; a Foliant and a Treueschwur
    sc = Scenario([{"path": "buch", "rank": rank, "plus6": True, "hand": ["Foliant", "Treueschwur"], "deck": FILL},
                   {"deck": FILL}], version=version)
    assert sc.usable(0, "Meister", 2) is can
    if can:
        sc.activate(0, "Meister", 2, pay=["Foliant", "Treueschwur"])
        assert sc.rank(0) == "VIII"


def test_below_rank_vii_a_foliant_delivers_only_w():
    from games.orden import rules as R
    sc = Scenario([{"path": "buch", "rank": "VI", "plus6": True, "hand": ["Foliant"], "deck": FILL}, {"deck": FILL}])
    iid = sc._find(0, "Foliant")
    assert R.deliveries(sc.state, 0, R.card(sc.state, iid), "hand") == [{"W": 2}]
    sc = Scenario([{"path": "buch", "rank": "VII", "plus6": True, "hand": ["Foliant"], "deck": FILL}, {"deck": FILL}])
    iid = sc._find(0, "Foliant")
    assert R.deliveries(sc.state, 0, R.card(sc.state, iid), "hand") == [{"W": 2}, {"E": 2}]


def test_the_starters_keep_their_lists():
    for path in PATHS:
        assert starter_names(path, 19) == starter_names(path, 18), path
    assert D.starter("buch", 19)["cards"].count(441) == 3 and 341 not in D.starter("buch", 19)["cards"]
    assert D.starter("buch", 18)["cards"].count(341) == 3


def test_version_18_matches_keep_their_cards_and_new_decks_take_the_new_ones():
    old = PLUGIN.setup_recorded("18", 2, {}, 5, [{"deck": "starter:buch"}, {"deck": "starter:hammer"}])
    assert old["v"] == 18 and 341 in old["ci"] and 441 not in old["ci"]
    new = PLUGIN.setup_recorded("19", 2, {}, 5, [{"deck": "starter:buch"}, {"deck": "starter:hammer"}])
    assert new["v"] == 19 and 441 in new["ci"] and 341 not in new["ci"]


def test_the_card_text_names_the_rank_before_the_e():
    assert card_text(CS.cards[441], "de")[0] == "Liefert 2x W oder, wenn Du mindestens RANG VII hast, 2x E (nicht beides)."
    assert card_text(CS.cards[441], "en")[0] == "Delivers 2x W or, if you hold at least RANK VII, 2x E (not both)."
    assert card_text(CS.cards[341], "de")[0] == "Liefert 2x W."
