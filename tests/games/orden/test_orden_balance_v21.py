"""Data version 21 — an Einspruch for the seats that move later in the round.

The game ends the moment a rank X comes on top, so in a round where two players could finish, the one earlier
in the turn order won: on version 20 the start player won 56.5 % of 2-player and 38.8 % of 3-player tables
(fair 50 and 33.3). Einspruch 275→475 prevents an ascent only for a player whose turn in this round is still to
come (condition ``yet_to_move``: never the start player, at every ascent of the start player everyone else) and
costs only itself; every starter holds one. Matches of version 20 keep their starters and the Einspruch that
costs 2x T."""
from collections import Counter

from orden_scenario import Scenario, no_of, starter_names
from test_orden_reactions import T_HAND, actor, idle, objector

from games.orden import decks as D
from games.orden import rules as R
from games.orden.catalog import cardset
from games.orden.plugin import PLUGIN
from games.orden.text import ability as ability_text

PATHS = ("schwert", "hammer", "buch")


def round_of(seats, start, cur):
    """A scenario in the middle of a round: ``start`` opened it, ``cur`` is on the move."""
    sc = Scenario(seats, cur=cur)
    sc.state["start"] = start
    sc.auto_decline = False
    return sc


def ascend(sc, seat):  # the K is paid after the window (Scenario's plan)
    sc.activate(seat, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Kraft"])


def einspruch_offered(sc, seat):
    return any(a["type"] == "react" for a in sc.legal(seat))


def test_every_starter_gains_one_einspruch_and_nothing_else():
    for path in PATHS:
        assert Counter(starter_names(path, 21)) - Counter(starter_names(path, 20)) == Counter({"Einspruch": 1}), path
        assert Counter(starter_names(path, 20)) - Counter(starter_names(path, 21)) == Counter(), path
    sizes = {p: len(D.resolve(f"starter:{p}", 21)["cards"]) for p in PATHS}
    assert sizes == {"schwert": 41, "hammer": 41, "buch": 42}
    for path in PATHS:
        assert D.validate(D.starter(path, 21), 21)


def test_the_new_einspruch_and_the_old_one():
    cs = cardset()
    assert no_of("Einspruch", 20) == 275 and no_of("Einspruch", 21) == 475
    assert cs.cards[275].until == 20 and cs.cards[475].since == 21
    rule = cs.cards[475].abilities[0]
    assert [c.kind for c in rule.conditions] == ["yet_to_move"]
    assert [(c.verb, c.what) for c in rule.costs] == [("remove", "self")]
    assert ability_text(rule, "de") == ("Reaktion (wenn ein Mitspieler aufsteigen will): Wenn Du in dieser Runde "
                                        "noch nicht am Zug warst, entferne diese Karte: Verhindere den Aufstieg.")
    assert "you have not had your turn in this round yet" in ability_text(rule, "en")


def test_a_later_seat_prevents_the_start_players_ascent_for_the_card_alone():
    sc = round_of([actor(), objector()], start=0, cur=0)
    ascend(sc, 0)
    sc.react(1, "Einspruch", 0)
    assert "prevented" in sc.event_types() and sc.rank(0) == "IV"
    assert sc.zone(1, "aussen") == ["Einspruch"] and sorted(sc.zone(1, "hand")) == sorted(T_HAND)  # nothing else paid


def test_the_start_player_cannot_object_once_it_has_moved():
    # seat 1 moves second in the round: seat 0 (the start player) has had its turn
    sc = round_of([objector(), actor()], start=0, cur=1)
    ascend(sc, 1)
    assert sc.to_move() == [0] and not einspruch_offered(sc, 0)
    sc.decline(0)
    assert sc.rank(1) == "V"


def test_three_players_only_the_seats_still_to_move_may_object():
    # start player seat 1; seat 2 on the move; seat 0 moves last in this round, seat 1 has moved
    sc = round_of([objector(), objector(), actor()], start=1, cur=2)
    assert R.holds(sc.state, 0, cardset().cards[475].abilities[0].conditions)
    assert not R.holds(sc.state, 1, cardset().cards[475].abilities[0].conditions)
    ascend(sc, 2)
    assert sc.to_move() == [0] and einspruch_offered(sc, 0)
    sc.decline(0)
    assert sc.to_move() == [1] and not einspruch_offered(sc, 1)
    sc.decline(1)
    assert sc.rank(2) == "V"


def test_an_idle_seat_is_asked_all_the_same():
    # who is asked must not tell the table about a hand: the start player without a usable reaction is asked too
    sc = round_of([idle(), actor()], start=0, cur=1)
    ascend(sc, 1)
    assert sc.to_move() == [0] and sc.legal(0)[-1] == {"type": "decline"}


def test_version_20_matches_keep_their_starters_and_einspruch():
    decks = [{"deck": "starter:schwert"}, {"deck": "starter:buch"}]
    old = PLUGIN.setup_recorded("20", 2, {}, 5, decks)
    new = PLUGIN.setup_recorded("21", 2, {}, 5, decks)
    assert old["v"] == 20 and new["v"] == 21
    assert 275 not in old["ci"] and new["ci"].count(475) == 2
    assert len(new["ci"]) - len(old["ci"]) == 2
