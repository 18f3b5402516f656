"""Simulated games always end: data version 22 — Stillstand.

Two Großmeisters who have spent every S (Gnade removes itself, the Großmeister's prevention removes what it pays
with, and no ? stands for S) can never ascend again, and on version 21 their game went on until the harness's
300-round cap (thin-grace against Buch, seed 6,000,035). From version 22 such a game ends at the end of
the round, places by rank and the tie-break list, as after the seed's round counter. The test is an upper bound:
a single S a player could still draw keeps the game going."""
from orden_scenario import Scenario
from test_orden_reactions import actor

from games.orden.lookahead import LONG_GAME, lookahead_bot
from games.orden.plugin import PLUGIN
from games.orden.standstill import may_ascend, standstill
from games.rng import Rng

HAND = ["Gehorsam", "Gehorsam", "Foliant", "Foliant", "Schriftrolle", "Treueschwur", "Demut"]


def spent(**kw):
    """A Großmeister (IX+) whose S cards all lie in the Außenwelt."""
    return {"path": "buch", "plus9": True, "rank": "IX+", "hand": HAND, "deck": ["Gebet", "Vision"],
            "auslage": ["Mysterium des Lichts", "Vision"], "aussen": ["Gnade", "Gnade", "Erlösung"], **kw}


def round_played(seats, version=None):
    sc = Scenario(seats, version=version)
    sc.end_turn(0)
    assert sc.state["result"] is None  # checked when the round is over
    sc.end_turn(1)
    return sc


def test_a_game_nobody_can_finish_ends_with_the_round():
    sc = round_played([spent(), spent()])
    assert sc.state["result"] is not None and sc.state["phase"] == "over"
    assert sc.event_types()[-2:] == ["standstill", "end"]
    places = sorted(p["place"] for p in sc.state["result"]["placements"])
    assert places == [1, 2] and {p["rank"] for p in sc.state["result"]["placements"]} == {"IX+"}


def test_version_21_plays_on():
    # the same position under the rules of version 21 (the cards are the same): the game never ends
    sc = round_played([spent(), spent()], version=21)
    assert sc.state["result"] is None and "standstill" not in sc.event_types()


def test_the_higher_rank_wins_a_standstill():
    sc = round_played([spent(rank="IX"), spent()])
    first = next(p for p in sc.state["result"]["placements"] if p["place"] == 1)
    assert first["seat"] == 1 and first["rank"] == "IX+"


def test_one_s_a_player_could_still_draw_keeps_the_game_going():
    for zone in ("deck", "ablage", "auslage", "hand"):
        seat1 = spent()
        seat1[zone] = seat1.get(zone, []) + ["Gnade"]
        sc = round_played([spent(), seat1])
        assert sc.state["result"] is None, zone
        assert not may_ascend(sc.state, 0) and may_ascend(sc.state, 1)


def test_the_aussenwelt_counts_while_a_card_could_fetch_from_it():
    # Erlösung takes any card from the Außenwelt to the hand: its S come back
    sc = Scenario([spent(deck=["Erlösung"], aussen=["Gnade", "Gnade"]), spent()])
    assert may_ascend(sc.state, 0) and not standstill(sc.state)
    sc = Scenario([spent(), spent()])  # Erlösung itself removed
    assert not may_ascend(sc.state, 0)


def test_a_rule_for_lower_ranks_does_not_count():
    # Das Versprechen ascends only below RANG I; Gnade's ascent needs 1x S of its own delivery
    sc = Scenario([spent(hand=HAND[:-1] + ["Das Versprechen"]), spent()])
    assert not may_ascend(sc.state, 0) and standstill(sc.state)
    sc = Scenario([{"path": "schwert", "rank": "0", "hand": ["Das Versprechen"]}, spent()])
    assert may_ascend(sc.state, 0)


def test_the_log_says_why_the_game_ended():
    sc = round_played([spent(), spent()])
    event = next(e for e in sc.events if e["type"] == "standstill")
    assert PLUGIN.describe(event, {}, "de").startswith("Stillstand: Niemand kann mehr aufsteigen")
    assert PLUGIN.describe(event, {}, "en").startswith("Standstill: nobody can ascend any more")


def test_the_pilot_tries_an_ascent_first_in_a_long_game():
    # a found Schwert deck at IX spent its action on a Kraft contest for 200 rounds instead of an ascent that a
    # rival's Einspruch would have prevented once; past LONG_GAME the ascent comes first
    sc = Scenario([actor(), spent()])  # Knappe's ascent ready (the reaction tests' actor)
    sc.state["round"] = LONG_GAME + 1
    action = lookahead_bot(sc.state, 0, Rng(3))
    assert action["type"] == "activate" and sc._names([action["card"]]) == ["Knappe"]
