"""Engine contract: setup, views, JSON, illegal actions, turn end, reshuffle, the end,
placements and tie-breaks, league points, deck validation, resampling, playouts."""
import json

import pytest
from orden_scenario import Scenario, no_of

from games.base import IllegalAction
from games.orden import decks
from games.orden.roster import BOTS
from games.orden.engine import ENGINE
from games.orden.plugin import PLUGIN
from games.orden.scoring import league_points
from games.rng import Rng

STARTERS = [{"deck": "starter:schwert"}, {"deck": "starter:hammer"}, {"deck": "starter:buch"},
            {"deck": "starter:schwert"}]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n):
    st = ENGINE.setup(n, {}, 42, STARTERS[:n])
    assert json.loads(json.dumps(st)) == st
    assert all(len(p["hand"]) == 7 for p in st["p"])
    assert ENGINE.to_move(st) == [st["start"]] and ENGINE.outcome(st) is None
    assert [p["path"] for p in st["p"]] == [c["deck"][8:] for c in STARTERS[:n]]
    assert {ENGINE.setup(n, {}, seed, STARTERS[:n])["start"] for seed in range(30)} == set(range(n))


def test_setup_with_explicit_deck_list_and_resolved_choices():
    d = decks.starter("buch")
    st = ENGINE.setup(2, {"rounds": 30}, 1, [{"deck": d["pfad"] + d["cards"]}, {"deck": d}])
    assert st["rounds_left"] == 30 and st["p"][0]["path"] == "buch"
    resolved = PLUGIN.resolve_choices([{"deck": "starter:hammer"}, {"deck": "starter:buch"}])
    assert resolved[0]["deck"] == decks.starter("hammer") and resolved[0]["deck_id"] == "starter:hammer"
    st = ENGINE.setup(2, {}, 1, resolved)
    assert st["p"][0]["path"] == "hammer"
    values = [v for v, _ in PLUGIN.seat_choice_values("deck", None)]
    assert values == ["starter:schwert", "starter:hammer", "starter:buch"]


def test_view_hides_hands_decks_and_rng():
    st = ENGINE.setup(3, {}, 5, STARTERS[:3])
    for seat in (0, 1, 2, None):
        v = ENGINE.view(st, seat)
        assert json.loads(json.dumps(v)) == v
        text = json.dumps(v)
        assert "rng" not in v and str(st["rng"]) not in text
        for s, sv in enumerate(v["seats"]):
            assert ("hand" in sv) == (s == seat)
            assert sv["hand_size"] == 7 and sv["deck_size"] == len(st["p"][s]["deck"])
            assert "deck" not in sv


def test_illegal_actions_change_nothing_and_explain():
    st = ENGINE.setup(2, {}, 3, STARTERS[:2])
    cur = st["start"]
    other = 1 - cur
    frozen = json.dumps(st, sort_keys=True)
    for seat, action in ((other, {"type": "end_turn"}), (cur, {"type": "fly"}), (cur, {"type": "play", "card": 10**6}),
                         (cur, {"type": "play", "card": "1"}), (cur, {"type": "end_turn", "x": 1}), (cur, "end_turn"),
                         (cur, {"type": "activate", "card": st["p"][cur]["pfad"][0], "ability": 9})):
        with pytest.raises(IllegalAction) as e:
            ENGINE.apply(st, seat, action)
        assert e.value.reason and e.value.reason_de
    assert json.dumps(st, sort_keys=True) == frozen
    hand = st["p"][cur]["hand"]
    st = ENGINE.apply(st, cur, {"type": "play", "card": hand[0]}).state
    with pytest.raises(IllegalAction):  # play limit 1
        ENGINE.apply(st, cur, {"type": "play", "card": st["p"][cur]["hand"][0]})


def test_end_of_turn_discard_to_hand_limit_is_the_players_choice():
    sc = Scenario([{"hand": ["Kraft"] * 8 + ["Gebet", "Vision"], "deck": ["Demut"] * 5}, {}])
    sc.end_turn(0)
    assert sc.state["phase"] == "discard" and sc.to_move() == [0]
    assert sorted(a["card"] for a in sc.legal(0)) == sorted(sc.state["p"][0]["hand"])
    sc.discard(0, "Gebet")
    sc.discard(0, "Vision")
    assert sc.state["phase"] == "discard" and sc.hand_size(0) == 8
    sc.discard(0, "Kraft")
    assert sc.hand_size(0) == 7 and sc.state["cur"] == 1 and sc.state["phase"] == "main"
    assert sorted(sc.zone(0, "ablage")) == ["Gebet", "Kraft", "Vision"]


def test_empty_draw_pile_is_replaced_by_the_shuffled_ablage_at_once():
    sc = Scenario([{"hand": ["Kraft"] * 3, "deck": ["Demut", "Demut"], "ablage": ["Gebet", "Vision", "Gnade"]}, {}])
    step = sc.end_turn(0)
    assert step.reveals
    assert sc.hand_size(0) == 7 and sc.zone(0, "ablage") == []
    assert "reshuffle" in [e["type"] for e in step.events]
    assert len(sc.zone(0, "deck")) == 1


def test_private_draw_events():
    sc = Scenario([{"hand": ["Kraft"], "deck": ["Demut"] * 10}, {}])
    step = sc.end_turn(0)
    drew = [e for e in step.events if e["type"] == "drew"]
    assert drew and drew[0]["to"] == [0]
    assert [e for e in step.events if e["type"] == "draw"][0]["n"] == 6


def test_rank_x_ends_the_game_at_once():
    sc = Scenario([{"rank": "IX", "hand": ["Gnade", "Gnade", "Vision", "Vision"], "deck": ["Demut"] * 5},
                   {"rank": "VII"}, {"rank": "VII", "auslage": ["Mysterium des Lichts"]}])
    sc.activate(0, "Erzmeister", 1, pay=["Gnade", "Gnade", "Vision", "Vision"])
    assert sc.rank(0) == "X" and sc.to_move() == []
    out = ENGINE.outcome(sc.state)
    places = {p["seat"]: (p["place"], p["score"]) for p in out["placements"]}
    assert places == {0: (1, 10.0), 2: (2, 7.0), 1: (3, 7.0)}  # seat 2 wins the tie by its MYSTERIUM
    assert sc.legal(0) == [] and sc.legal(1) == []


def test_fixed_rounds_and_tie_break_list():
    seats = [
        {"rank": "VI", "path": "hammer", "auslage": ["Mysterium des Lichts", "Silberling"]},
        {"rank": "VI", "path": "buch", "auslage": ["Mysterium des Lichts", "Foliant"]},  # more properties
        {"rank": "VI", "path": "schwert", "plus6": True, "auslage": []},
        {"rank": "VI+", "path": "schwert", "plus6": True},
    ]
    sc = Scenario(seats, options={"rounds": 1})
    for s in range(4):
        sc.end_turn(s)
    out = ENGINE.outcome(sc.state)
    assert out is not None and sc.to_move() == []
    order = [p["seat"] for p in sorted(out["placements"], key=lambda p: p["place"])]
    assert order == [3, 1, 0, 2]
    assert {p["seat"]: p["score"] for p in out["placements"]} == {0: 6.0, 1: 6.0, 2: 6.0, 3: 6.5}


def test_lot_decides_a_complete_tie():
    places = set()
    for seed in range(20):
        sc = Scenario([{"rank": "II"}, {"rank": "II"}], options={"rounds": 1}, seed=seed)
        sc.end_turn(0)
        step = sc.end_turn(1)
        assert step.reveals
        out = ENGINE.outcome(sc.state)
        places.add(tuple(p["place"] for p in out["placements"]))
    assert places == {(1, 2), (2, 1)}


def test_league_points():
    assert league_points("VI+") == 6.5 and league_points("IX+") == 9.5 and league_points("X") == 10
    assert league_points("VII") == 7 and league_points("0") == 0 and league_points(None) == 0
    with pytest.raises(ValueError):
        league_points("XI")


def test_tiebreak_scores_for_an_unfinished_game():
    sc = Scenario([{"rank": "V", "auslage": ["Kraft"]}, {"rank": "V", "auslage": ["Mysterium des Lichts"]}])
    a, b = PLUGIN.tiebreak_scores(sc.state)
    assert b > a


def test_deck_validation():
    for p in ("schwert", "hammer", "buch"):
        d = decks.starter(p)
        assert decks.validate(d) == d and decks.path_of(d) == p
    d = decks.starter("schwert")
    with pytest.raises(decks.DeckError):  # order
        decks.validate({"pfad": d["pfad"][::-1], "cards": d["cards"]})
    with pytest.raises(decks.DeckError):  # a rank missing
        decks.validate({"pfad": d["pfad"][1:], "cards": d["cards"]})
    with pytest.raises(decks.DeckError) as e:  # more copies than the base set has
        decks.validate({"pfad": d["pfad"], "cards": d["cards"] + [no_of("Kraft")] * 3})  # 2 in the starter, 4 in the set
    assert "Kraft" in e.value.de
    with pytest.raises(decks.DeckError):  # rank card in the Nachziehstapel
        decks.validate({"pfad": d["pfad"], "cards": d["cards"] + [no_of("Herzog")]})
    mixed = [no_of(n) for n in ("Vor den Mauern", "Adept", "Novize", "Anwärter", "Knappe", "Geselle", "Professor",
                                "Dekan", "Meister", "Hochmeister", "Erzmeister", "Großmeister", "Seliger")]
    assert decks.resolve(mixed + [no_of("Kraft")])["pfad"] == mixed  # versions mix freely
    with pytest.raises(decks.DeckError):
        decks.resolve("starter:magie")


def test_resample_hidden_keeps_every_other_view():
    st = ENGINE.setup(3, {}, 9, STARTERS[:3])
    rng = Rng(4)
    bots = BOTS["heuristic"]
    for _ in range(120):
        if ENGINE.outcome(st) is not None:
            break
        for seat in (0, 1, 2, None):
            other = PLUGIN.resample_hidden(st, seat, rng)
            assert json.loads(json.dumps(other)) == other
            for viewer in (0, 1, 2, None):
                if viewer != seat or seat is None:
                    assert ENGINE.view(other, viewer) == ENGINE.view(st, viewer), (seat, viewer)
        s = ENGINE.to_move(st)[0]
        st = ENGINE.apply(st, s, bots(st, s, rng)).state


@pytest.mark.parametrize("bot", ["random", "heuristic"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_playouts_end_and_every_step_is_legal(bot, n):
    for seed in range(3):
        st = ENGINE.setup(n, {}, seed, STARTERS[:n])
        rng = Rng(seed)
        for _ in range(5000):
            if ENGINE.outcome(st) is not None:
                break
            seat = ENGINE.to_move(st)[0]
            legal = ENGINE.legal_actions(st, seat)
            action = BOTS[bot](st, seat, rng)
            assert action in legal
            step = ENGINE.apply(st, seat, action)
            for e in step.events:
                for lang in ("de", "en"):
                    line = PLUGIN.describe(e, ["A", "B", "C", "D"], lang)
                    assert line and "{" not in line
            st = step.state
        assert ENGINE.outcome(st) is not None
        assert json.loads(json.dumps(st)) == st


OWN_BURG = {"schwert": "Burg Falkenstein", "hammer": "Burg Eisenfels", "buch": "Klosterburg"}


def full_pool_deck(path):
    """Every Nachziehstapel card of the base set as often as it exists, of the BURGs only the path's
    own (a deck holds one); VI+ and IX+ in the Pfad."""
    from orden_scenario import CS, pfad_for
    cards = [c.no for c in CS.cards.values() if c.kind == "deck" and c.until is None
             and (c.type != "BURG" or c.name.de == OWN_BURG[path]) for _ in range(c.count)]
    return decks.validate({"pfad": pfad_for(path, True, True), "cards": sorted(cards)})


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_play_the_whole_pool_with_plus_ranks(bot):
    seen = set()
    for seed in range(4):
        st = ENGINE.setup(3, {}, seed, [{"deck": full_pool_deck(p)} for p in ("schwert", "hammer", "buch")])
        rng = Rng(seed)
        for _ in range(20000):
            if ENGINE.outcome(st) is not None:
                break
            seat = ENGINE.to_move(st)[0]
            action = BOTS[bot](st, seat, rng)
            if action["type"] in ("play", "activate", "react"):
                seen.add(st["ci"][action["card"]])
            st = ENGINE.apply(st, seat, action).state
        assert ENGINE.outcome(st) is not None
    assert len(seen) >= 50  # most cards of the pool were played or used
