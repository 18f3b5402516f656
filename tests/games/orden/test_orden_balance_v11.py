"""Data version 11 — Foliant draws from 8x W owned, not 6x.

On version 10 the Buch deck without VI+ and without its MENTORs (−Bibliothekarin Berta, −Magister
Gregor, −Disputation, −Studium, +Treueschwur, +Auftrag, +Erlösung) still won 60.8 % and 62.7 % of two
sets of 400 fresh games against the Hammer starter. Traced (bench/run.py orden compare --climb), it climbs IV–VI by the
dear ascents that pay from the Auslage, like the Buch starter; taken apart (bench/run.py orden compare --seed
1000001 --seeds 100, 200 games against Hammer, the find 62.0 %), keeping VI+ gave 54.0 %, keeping
Magister Gregor 55.5 %. A Pfad shorter by Dekan and no plays spent on MENTORs pay off as long as the
Buch's draw comes as easily without a MENTOR. Foliant's threshold now matches Goldbarren's (8x V): three
Foliants no longer open it alone, two with a MENTOR (W doubled) do. Screened on those 200 games: the find
62.0 → 58.0 %, the Buch starter 53.0 → 52.0 % (7x W: the find 59.0 %). A match set up under version 10
keeps its cards."""
import pytest
from orden_scenario import CS, Scenario, no_of

from games.orden.plugin import PLUGIN

FILL = ["Demut"] * 10


def test_new_number_and_the_old_one_retired():
    assert no_of("Foliant", 18) == 341 and no_of("Foliant", 10) == 241  # version 19: 441
    assert CS.cards[241].until == 10 and CS.cards[341].since == 11


@pytest.mark.parametrize("auslage,can", [(["Foliant", "Foliant", "Foliant", "Foliant"], True),  # 8x W
                                         (["Foliant", "Foliant", "Foliant"], False),  # 6x W: enough in v10
                                         (["Foliant", "Foliant", "Foliant", "Schriftrolle"], False),  # 7x W
                                         (["Bibliothekarin Berta", "Foliant", "Foliant"], True)])  # 4x W doubled
def test_foliant_draws_two_from_eight_w_owned(auslage, can):
    sc = Scenario([{"path": "buch", "auslage": auslage, "deck": FILL}, {"deck": FILL}])
    assert sc.usable(0, "Foliant", 0) is can
    if can:
        sc.activate(0, "Foliant", 0)
        assert sc.hand_size(0) == 2
        assert not sc.usable(0, "Foliant", 0)  # once per turn, every card of that name


def test_version_10s_foliant_drew_from_six():
    sc = Scenario([{"path": "buch", "auslage": ["Foliant", "Foliant", "Foliant"], "deck": FILL}, {"deck": FILL}],
                  version=10)
    assert sc.usable(0, "Foliant", 0) is True


def test_version_10_matches_keep_their_cards():
    old = PLUGIN.setup_recorded("10", 2, {}, 5, [{"deck": "starter:buch"}, {"deck": "starter:hammer"}])
    assert old["v"] == 10 and 241 in old["ci"] and 341 not in old["ci"]
    new = PLUGIN.setup_recorded("11", 2, {}, 5, [{"deck": "starter:buch"}, {"deck": "starter:hammer"}])
    assert new["v"] == 11 and 341 in new["ci"] and 241 not in new["ci"]


def test_the_card_text_says_eight():
    from games.orden.text import card_text

    assert "mindestens 8x W" in " ".join(card_text(CS.cards[341], "de"))
    assert "mindestens 6x W" in " ".join(card_text(CS.cards[241], "de"))
