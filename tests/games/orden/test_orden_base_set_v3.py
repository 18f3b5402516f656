"""The second base set (data version 3). Paths with their own mechanics, the
contest condition ``stronger``, answers to a rival's plan, no card a weaker copy of another,
and old matches replaying with the card versions they were set up with."""
import re

import pytest
from orden_scenario import CS, Scenario, no_of

from games.orden import decks
from games.orden import rules as R
from games.orden.engine import ENGINE
from games.orden.plugin import PLUGIN
from games.orden.schema import PATH_RANKS, PATHS, parse_card
from games.rng import Rng

FILL = ["Demut"] * 10
CURRENT = [c for c in CS.cards.values() if c.in_version(decks.CURRENT)]


# -- versions: old matches keep their cards ---------------------------------------------------

def test_a_match_set_up_under_version_2_keeps_the_old_card_versions():
    choices = [{"deck": "starter:schwert"}, {"deck": "starter:buch"}]
    old = PLUGIN.setup_recorded("2", 2, {}, 5, choices)
    new = PLUGIN.setup_recorded("3", 2, {}, 5, choices)
    assert old["v"] == 2 and new["v"] == 3
    # the Pfad of version 2 (card numbers as they were logged), and of version 3
    assert [old["ci"][i] for i in old["p"][0]["pfad"]] == [1, 2, 3, 4, 5, 6, 7, 8, 17, 18, 19, 20, 21]
    assert [new["ci"][i] for i in new["p"][0]["pfad"]] == [1, 2, 3, 4, 22, 23, 24, 25, 17, 18, 19, 34, 21]
    old_nos = {old["ci"][i] for p in old["p"] for i in p["hand"] + p["deck"] + p["pfad"]}
    assert all(CS.cards[no].in_version(2) for no in old_nos)
    assert no_of("Waffenübung") not in old_nos and 122 in old_nos  # the old Waffenübung
    # a version-2 game still plays to its end with its own cards
    st, rng = old, Rng(3)
    from games.orden.roster import BOTS
    for _ in range(20000):
        if ENGINE.outcome(st) is not None:
            break
        seat = ENGINE.to_move(st)[0]
        st = ENGINE.apply(st, seat, BOTS["heuristic"](st, seat, rng)).state
    assert ENGINE.outcome(st) is not None


def test_old_card_versions_are_refused_for_new_decks_but_resolve_for_their_version():
    old = decks.starter("hammer", 2)
    with pytest.raises(decks.DeckError, match="old version"):
        decks.playable(old)
    assert decks.resolve(old, 2) == old
    assert decks.resolve(old["pfad"] + old["cards"], 2) == old
    for p in PATHS:
        assert all(CS.cards[no].in_version(decks.CURRENT) for no in decks.starter(p)["pfad"] + decks.starter(p)["cards"])


def test_a_card_version_cannot_end_before_it_begins():
    from games.orden.schema import CardError
    with pytest.raises(CardError, match="until"):
        parse_card({"no": 999, "kind": "deck", "name": {"de": "P", "en": "P"}, "flavor": {"de": "", "en": ""},
                    "since": 3, "until": 2})


# -- the contest condition ``stronger`` -------------------------------------------------------

def test_stronger_compares_the_auslagen_with_multipliers():
    # Waffenübung: Aktion only while you own more K than every opponent
    win = Scenario([{"auslage": ["Waffenübung", "Mächtige Statur"], "deck": FILL},
                    {"auslage": ["Kraft"], "deck": FILL}, {"auslage": ["Kraft", "Kraft"], "deck": FILL}])
    assert win.usable(0, "Waffenübung", 0)  # 3 against 1 and 2
    win.activate(0, "Waffenübung", 0)
    assert win.hand_size(0) == 1
    tie = Scenario([{"auslage": ["Waffenübung", "Mächtige Statur"], "deck": FILL},
                    {"auslage": ["Kraft"], "deck": FILL}, {"auslage": ["Mächtige Statur", "Kraft"], "deck": FILL}])
    assert not tie.usable(0, "Waffenübung", 0)  # 3 against 3: not more
    mentor = Scenario([{"auslage": ["Waffenübung", "Mächtige Statur", "Mentor Michael"], "deck": FILL},
                       {"auslage": ["Mächtige Statur", "Kraft", "Kraft"], "deck": FILL}])
    assert mentor.usable(0, "Waffenübung", 0)  # 6 (the MENTOR doubles) against 4
    assert R.prop_total(mentor.state, 0, "K") == 6


def test_ritter_tilts_only_at_the_weaker_and_freiherr_shields():
    sc = Scenario([{"path": "schwert", "rank": "V", "auslage": ["Mächtige Statur", "Kraft"], "hand": ["Mächtige Statur"],
                    "deck": FILL},
                   {"path": "hammer", "auslage": ["Silberling", "Goldbarren"], "deck": FILL},
                   {"path": "buch", "auslage": ["Mächtige Statur", "Mächtige Statur"], "deck": FILL}])
    sc.activate(0, "Ritter", 1, pay=["Mächtige Statur"])
    assert sc.zone(1, "ablage") in (["Silberling"], ["Goldbarren"])  # 0 K < 3 K: one card of the Auslage
    assert sc.zone(2, "ablage") == [] and len(sc.zone(2, "auslage")) == 2  # 4 K: not weaker
    shield = Scenario([{"path": "schwert", "rank": "V", "auslage": ["Mächtige Statur", "Kraft"], "hand": ["Mächtige Statur"],
                        "deck": FILL},
                       {"path": "schwert", "rank": "VI", "auslage": ["Silberling"], "hand": ["Kraft"], "deck": FILL}])
    shield.activate(0, "Ritter", 1, pay=["Mächtige Statur"])
    assert shield.to_move() == [1]
    shield.react(1, "Freiherr", 0, pay=["Kraft"])
    assert "prevented" in shield.event_types() and shield.zone(1, "auslage") == ["Silberling"]


# -- answers to a rival's plan, each path with its own currency --------------------------------

@pytest.mark.parametrize("card,pay,path", [("Ruf zu den Waffen", ["Mächtige Statur"], "schwert"),
                                           ("Bestechung", ["Goldbarren", "Silberling"], "hammer")])
def test_a_path_bars_a_rivals_ascent_with_its_own_property(card, pay, path):
    sc = Scenario([{"path": "schwert", "rank": "IV", "auslage": ["Kraft", "Kraft", "Mächtige Statur", "Mentor Michael"],
                    "deck": FILL},
                   {"path": path, "hand": [card] + pay, "deck": FILL}])
    sc.activate(0, "Knappe", 0)
    assert sc.to_move() == [1]
    sc.react(1, card, 0, pay=pay)
    assert sc.rank(0) == "IV" and "prevented" in sc.event_types()
    assert card in sc.zone(1, "aussen")  # data version 6: it removes itself (test_orden_balance_v6.py)


def test_dekan_argues_any_action_away():
    sc = Scenario([{"path": "schwert", "auslage": ["Meditation"], "deck": FILL},
                   {"path": "buch", "rank": "VI+", "plus6": True, "hand": ["Foliant"], "deck": FILL}])
    sc.activate(0, "Meditation", 0)
    sc.react(1, "Dekan", 1, pay=["Foliant"])
    assert "prevented" in sc.event_types() and sc.hand_size(0) == 0


def test_grossmeister_can_go_on_to_x_in_the_same_turn():
    # IX → IX+ with the Erzmeister's Aktion; the Großmeister's AKTIONEN+1 allows the next one
    sc = Scenario([{"path": "schwert", "rank": "IX", "plus9": True,
                    "auslage": ["Vision", "Vision"], "hand": ["Gnade", "Gnade", "Vision"], "deck": FILL},
                   {"path": "hammer", "deck": FILL}])
    sc.activate(0, "Erzmeister", 0, pay=["Gnade", "Vision"])
    assert sc.rank(0) == "IX+" and sc.limits(0)["actions"] == 2
    sc.activate(0, "Großmeister", 2, pay=["Gnade"])
    assert sc.rank(0) == "X" and sc.state["phase"] == "over"


def test_schmied_builds_a_castle_with_wealth():
    sc = Scenario([{"path": "hammer", "rank": "VI", "hand": ["Goldbarren", "Silberling"],
                    "deck": ["Burg Eisenfels"] + FILL}, {"path": "buch", "deck": FILL}])
    sc.activate(0, "Schmied", 0, pay=["Goldbarren", "Silberling"])
    assert sc.zone(0, "auslage") == ["Burg Eisenfels"]


# -- no letter swaps, no weaker copies --------------------------------------------------------

def _shape(card):
    """A card's rules with the path letters made alike: two cards of equal shape differ only in
    K/V/W (a letter swap)."""
    return re.sub(r"'[KVW]'", "'X'", repr((card.abilities, card.liefert, card.type)))


def test_no_path_card_is_a_letter_swap_of_another_paths_card():
    for rank in PATH_RANKS:
        shapes = {c.path: _shape(c) for c in CURRENT if c.kind == "rank" and c.rank == rank}
        assert len(set(shapes.values())) == 3, rank
    pool = [c for c in CURRENT if c.kind == "deck" and c.type != "BURG"]
    for a in pool:
        for b in pool:
            if a.no < b.no and a.wappen != b.wappen and {a.wappen, b.wappen} <= {"schwert", "hammer", "buch"}:
                assert _shape(a) != _shape(b), (a.name.de, b.name.de)
    mentors = [c for c in CURRENT if c.type == "MENTOR"]
    assert len({_shape(c) for c in mentors}) == len(mentors)


def _weaker_verbs(a, b) -> bool:
    """Every verb of ``a`` is in ``b`` at least as strong (``b`` may have more)."""
    left = list(b)
    for va in a:
        match = next((vb for vb in left if vb.kind == va.kind and vb.n >= va.n
                      and repr(vb).replace(f"n={vb.n}", "") == repr(va).replace(f"n={va.n}", "")), None)
        if match is None:
            return False
        left.remove(match)
    return True


def dominated(a, b) -> bool:
    """``a`` is a strictly weaker copy of ``b``: same deliveries, TYPE and gate, every rule of
    ``a`` matched by a rule of ``b`` with the same kind, conditions and costs and at least
    its verbs and statics."""
    if a.no == b.no or a.liefert != b.liefert or a.type != b.type or a.rank_gate != b.rank_gate:
        return False
    if len(a.abilities) != len(b.abilities) or a.abilities == b.abilities:
        return False
    for x, y in zip(a.abilities, b.abilities):
        if (x.kind, x.conditions, x.costs, x.on, x.when, x.once_per_turn) != \
                (y.kind, y.conditions, y.costs, y.on, y.when, y.once_per_turn):
            return False
        if not set(x.statics) <= set(y.statics) or not _weaker_verbs(x.verbs, y.verbs):
            return False
    return True


def test_no_card_is_a_strictly_weaker_copy_of_another():
    pool = [c for c in CURRENT if c.kind == "deck"]
    found = [(a.name.de, b.name.de) for a in pool for b in pool if dominated(a, b)]
    assert found == []
    # the check itself: the old Fleiß was Beistand without its draw
    assert dominated(CS.cards[182], CS.cards[184])
