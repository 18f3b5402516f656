"""Issue 24: data version 19 — an Einspruch in every starter, raised only by a player ranked below someone.

On version 18 the start player won 38.5 % of the 3-player tables (fair 33.3, goal within 5). An Einspruch
(prevent an ascent: remove it and 2x T from the hand) for a Wachsamkeit or a Gehorsam in every starter made the
games longer and took that to 35.8 %, but the 2-player start player to 55.2 (stop 48): the seat ahead used it to
keep the one behind from catching up. Einspruch 275 → 375 asks „Wenn ein Mitspieler einen höheren Rang hat als
Du“ (the condition of Gnade and Demut): an answer for the one behind a leader, never the leader's brake. On the
same 600 seeds: 2 players 51.3 %, 3 players 38.0 (docs/games/orden.md, "Balance (data version 19)"). A match of
version 18 keeps card 275 and its starters."""
import pytest
from orden_scenario import CS, Scenario, hammer_deck_with, no_of, starter_names

from games.orden import decks as D
from games.orden.engine import ENGINE
from games.orden.plugin import PLUGIN
from games.orden.text import card_text

FILL = ["Demut"] * 10
PATHS = ("schwert", "hammer", "buch")
KNAPPE_PAYS = ["Mächtige Statur", "Mächtige Statur", "Kraft"]


def test_new_number_and_the_old_one_retired():
    assert no_of("Einspruch") == 375 and no_of("Einspruch", 18) == 275
    assert CS.cards[275].until == 18 and CS.cards[375].since == 19
    old, new = CS.cards[275].abilities[0], CS.cards[375].abilities[0]
    assert (new.kind, new.on, new.costs, new.verbs) == (old.kind, old.on, old.costs, old.verbs)
    assert old.conditions == () and [c.kind for c in new.conditions] == ["behind"]
    assert CS.cards[375].rank_gate == CS.cards[275].rank_gate == "IV" and CS.cards[375].count == 2
    assert card_text(CS.cards[375], "de")[1] == (
        "Reaktion (wenn ein Mitspieler aufsteigen will): Wenn ein Mitspieler einen höheren Rang hat als Du, "
        "entferne diese Karte und lege 2x T von der Hand ab: Verhindere den Aufstieg.")
    assert card_text(CS.cards[375], "en")[1].startswith(
        "Reaction (when an opponent wants to ascend): If an opponent ranks above you, remove this card")


def knappe(rank="IV"):  # Knappe (IV) ascends to Ritter (V) for 5x K from the hand
    return {"path": "schwert", "rank": rank, "hand": KNAPPE_PAYS + ["Demut"], "deck": FILL}


def objector(rank="IV", **kw):
    return {"path": "buch", "rank": rank, "hand": ["Einspruch", "Treueschwur", "Demut"], "deck": FILL, **kw}


def window(seats, version=None):
    sc = Scenario(seats, version=version)
    sc.auto_decline = False
    sc.activate(0, "Knappe", 1, pay=KNAPPE_PAYS)
    assert sc.state["phase"] == "react"
    return sc


def test_a_seat_behind_the_actor_prevents_the_ascent():
    sc = window([knappe(), objector("III", plus6=False)])
    assert sc.legal(1) == [{"type": "decline"}]  # below RANG IV the card does nothing (its gate)
    # Geselle (Hammer V) ascends for 1x T and 4x V from the hand; the objector at IV is behind it
    sc = Scenario([{"path": "hammer", "rank": "V", "hand": ["Treueschwur", "Goldbarren", "Goldbarren"], "deck": FILL},
                   objector()])
    sc.activate(0, "Geselle", 2, pay=["Treueschwur", "Goldbarren", "Goldbarren"])
    sc.react(1, "Einspruch", 0, pay=["Treueschwur"])
    assert sc.rank(0) == "V" and sc.zone(1, "aussen") == ["Einspruch"] and sc.zone(1, "ablage") == ["Treueschwur"]
    assert sc.state["t"]["blocked"] == ["Geselle|2"]


def test_a_peer_or_a_leader_cannot_object():
    for rank in ("IV", "V"):  # the same rank as the actor, or above it
        sc = window([knappe(), objector(rank)])
        assert sc.legal(1) == [{"type": "decline"}], rank
        sc.decline(1)
        assert sc.rank(0) == "V"


def test_behind_anyone_is_enough_at_three_players():
    # seat 1 ranks as the actor does but below seat 2: it may answer the actor's ascent
    sc = window([knappe(), objector(), {"path": "hammer", "rank": "V", "hand": ["Demut"], "deck": FILL}])
    assert {"type": "react", "card": sc._find(1, "Einspruch"), "ability": 0} in sc.legal(1)
    sc.react(1, "Einspruch", 0, pay=["Treueschwur"])
    assert sc.rank(0) == "IV"


def test_version_18s_einspruch_answers_a_peer():
    sc = window([knappe(), objector()], version=18)
    assert {"type": "react", "card": sc._find(1, "Einspruch"), "ability": 0} in sc.legal(1)


def test_the_prevent_ascents_order_of_a_leader_declines():
    order = [{"kind": "reactions", "policy": "prevent_ascents", "min_rank": "IV"}]
    sc = Scenario([knappe(), objector("V")])
    sc.state = ENGINE.apply(sc.state, 0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1}).state
    assert PLUGIN.ordered_action(sc.state, 1, order) == {"type": "decline"}
    sc = Scenario([knappe(), objector("V")], version=18)
    sc.state = ENGINE.apply(sc.state, 0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1}).state
    assert PLUGIN.ordered_action(sc.state, 1, order)["type"] == "react"


def test_every_starter_holds_an_einspruch_for_a_card_that_does_not_deliver_t():
    swaps = {"schwert": "Wachsamkeit", "hammer": "Gehorsam", "buch": "Wachsamkeit"}
    for path, out in swaps.items():
        old, new = starter_names(path, 18), starter_names(path, 19)
        assert sorted(old + ["Einspruch"]) == sorted(new + [out]), path
        assert new.count("Einspruch") == 1 and D.starter(path, 19)["pfad"] == D.starter(path, 18)["pfad"]
    assert D.starter("hammer", 19)["cards"].count(no_of("Gehorsam")) == 3
    sizes = {p: len(D.playable(f"starter:{p}")["cards"]) for p in PATHS}
    assert D.CURRENT == 19 and sizes == {"schwert": 39, "hammer": 40, "buch": 41}


def test_version_18_matches_keep_their_cards_and_new_decks_take_the_new_one():
    old = PLUGIN.setup_recorded("18", 2, {}, 5, [{"deck": "starter:hammer"}, {"deck": "starter:buch"}])
    assert old["v"] == 18 and 275 not in old["ci"] and 375 not in old["ci"]  # version 18's starters hold none
    old = PLUGIN.setup_recorded("18", 2, {}, 5, [{"deck": hammer_deck_with(275, 18)}, {"deck": "starter:buch"}])
    assert 275 in old["ci"]
    assert D.validate(hammer_deck_with(375))["cards"].count(375) == 2  # the starter's and the added one
    with pytest.raises(D.DeckError, match="old version"):
        D.playable(hammer_deck_with(275))
