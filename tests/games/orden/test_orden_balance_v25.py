"""Data version 25 — Einspruch for the next seat to move only.

Einspruch 475 (version 21) let every seat still to move in the round prevent an ascent: at 4 players the start
player faced three Einsprüche, the last seat none. On thin starters (version 24) the start player won 46.9 % of
2-player, 25.8 % of 3-player and 19.6 % of 4-player tables (fair 50 / 33.3 / 25). Einspruch 475→575 prevents an
ascent only for the seat that moves right after the ascending one in this round (condition ``next_to_move``), so every
seat but the round's last faces one Einspruch at most. At 2 players the two conditions are the same. Matches of
version 24 keep the old card."""
from orden_scenario import no_of
from test_orden_balance_v21 import ascend, einspruch_offered, round_of
from test_orden_reactions import actor, objector

from games.orden import decks as D
from games.orden import rules as R
from games.orden.catalog import cardset
from games.orden.plugin import PLUGIN
from games.orden.text import ability as ability_text

PATHS = ("schwert", "hammer", "buch")


def next_only():
    return cardset().cards[575].abilities[0].conditions


def test_the_new_einspruch_and_the_old_one():
    cs = cardset()
    assert no_of("Einspruch", 24) == 475 and no_of("Einspruch", 25) == 575
    assert cs.cards[475].until == 24 and cs.cards[575].since == 25
    rule = cs.cards[575].abilities[0]
    assert [c.kind for c in rule.conditions] == ["next_to_move"]
    assert [(c.verb, c.what) for c in rule.costs] == [("remove", "self")]
    assert ability_text(rule, "de") == ("Reaktion (wenn ein Mitspieler aufsteigen will): Wenn Du in dieser Runde "
                                        "als Nächster am Zug bist, entferne diese Karte: Verhindere den Aufstieg.")
    assert "you are the next to take your turn in this round" in ability_text(rule, "en")


def test_starters_hold_the_new_card_and_keep_their_lists():
    for path in PATHS:
        assert D.starter(path, 25)["cards"].count(575) == 1 and 475 not in D.starter(path, 25)["cards"], path
        old = [575 if no == 475 else no for no in D.starter(path, 24)["cards"]]
        assert sorted(old) == D.starter(path, 25)["cards"], path


def test_four_players_only_the_next_seat_may_object():
    # seat 2 opened the round; seat 3 is on the move: seat 0 moves next, seat 1 last; seat 2 has moved
    sc = round_of([objector(), objector(), objector(), actor()], start=2, cur=3)
    assert [R.holds(sc.state, s, next_only()) for s in (0, 1, 2)] == [True, False, False]
    ascend(sc, 3)
    offered = {}
    while sc.to_move() != [3]:
        s, = sc.to_move()
        offered[s] = einspruch_offered(sc, s)
        sc.decline(s)
    assert offered == {0: True, 1: False, 2: False}  # everyone is asked; only the next seat may object
    assert sc.rank(3) == "V"


def test_the_next_seat_prevents_the_start_players_ascent():
    sc = round_of([actor(), objector(), objector()], start=0, cur=0)
    ascend(sc, 0)
    sc.react(1, "Einspruch", 0)
    assert "prevented" in sc.event_types() and sc.rank(0) == "IV"


def test_two_players_the_same_seats_as_before():
    old = cardset().cards[475].abilities[0].conditions
    for start in (0, 1):
        for cur in (0, 1):
            sc = round_of([objector(), objector()], start=start, cur=cur)
            for s in (0, 1):
                if s != cur:
                    assert R.holds(sc.state, s, next_only()) == R.holds(sc.state, s, old), (start, cur, s)


def test_version_24_matches_keep_the_old_einspruch():
    decks = [{"deck": "starter:schwert"}, {"deck": "starter:hammer"}, {"deck": "starter:buch"}]
    old = PLUGIN.setup_recorded("24", 3, {}, 5, decks)
    new = PLUGIN.setup_recorded("25", 3, {}, 5, decks)
    assert old["v"] == 24 and new["v"] == 25
    assert old["ci"].count(475) == 3 and 575 not in old["ci"]
    assert new["ci"].count(575) == 3 and 475 not in new["ci"]
