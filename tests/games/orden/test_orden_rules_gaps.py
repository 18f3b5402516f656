"""The rules gaps of the card language, one scenario each (each failed on the engine before its fix)."""
import json

from orden_scenario import Scenario, no_of

from games.orden.engine import ENGINE, META
from games.orden.plugin import PLUGIN
from games.rng import Rng


# -- „Ist der Nachziehstapel leer, wird der Ablagestapel gemischt …“ -------------------------

def test_an_empty_draw_pile_is_refilled_when_a_draw_is_due():
    # Nachziehstapel and Ablage empty; Meditation (discard itself: draw 2) puts a card in the
    # Ablage, so the draw that follows must shuffle it as the new Nachziehstapel.
    sc = Scenario([{"auslage": ["Meditation"], "hand": ["Demut"]}, {}])
    sc.activate(0, "Meditation", 0)
    assert sc.zone(0, "hand") == ["Demut", "Meditation"]
    assert sc.zone(0, "ablage") == [] and "reshuffle" in sc.event_types()
    assert sc.steps[-1].reveals


def test_turn_end_draws_from_the_reshuffled_ablage():
    # the audit's case: hand 0, Nachziehstapel 0, cards in the Ablage at the turn's end
    sc = Scenario([{"ablage": ["Demut"] * 5}, {}])
    sc.end_turn(0)
    assert sc.hand_size(0) == 5 and sc.zone(0, "ablage") == [] and sc.zone(0, "deck") == []


# -- „gilt diejenige zum Vorteil des Besitzers“ ----------------------------------------------

def test_of_two_conflicting_once_per_turn_effects_only_the_better_is_offered():
    # Dekan: draw 2 once per turn; Ordensburg: draw 1 once per turn (same group). Using the
    # Ordensburg first would block the Dekan's draw 2: it must not be offered.
    sc = Scenario([{"path": "buch", "rank": "VI+", "plus6": True, "auslage": ["Ordensburg"], "deck": ["Demut"] * 10},
                   {}])
    assert sc.usable(0, "Dekan", 0)
    assert not sc.usable(0, "Ordensburg", 0)
    assert sc.illegal(0, {"type": "activate", "card": sc._find(0, "Ordensburg"), "ability": 0}).reason_de
    sc.activate(0, "Dekan", 0)
    assert sc.hand_size(0) == 2 and not sc.usable(0, "Ordensburg", 0)


def test_a_lone_once_per_turn_effect_is_still_offered():
    sc = Scenario([{"path": "schwert", "rank": "IV", "auslage": ["Ordensburg"], "deck": ["Demut"] * 10}, {}])
    assert sc.usable(0, "Ordensburg", 0)


# -- the rounds option's hint follows the print version: „Empfehlenswert sind 50 bis 100“ ------

def test_rounds_hint_follows_the_print_version():
    rounds = next(o for o in META.options if o.key == "rounds")
    assert "50–100" in rounds.help_en and "50–100" in rounds.help_de


# -- Wählen: the player chooses the zone -----------------------------------------------------

def _choose_einladung(zone_cards):
    # Vor den Mauern: choose „Einladung“, take it to hand — one lies in the Nachziehstapel, one in
    # the Ablage
    return Scenario([{"deck": ["Demut", "Einladung", "Demut"], "ablage": ["Einladung"], **zone_cards}, {}])


def test_waehlen_offers_every_zone_holding_the_card():
    sc = _choose_einladung({})
    sc.do(0, {"type": "activate", "card": sc._find(0, "Vor den Mauern"), "ability": 0})
    sc.decline(1)
    assert sc.state["phase"] == "choose"
    no = no_of("Einladung")
    assert sorted(sc.legal(0), key=lambda a: a["zone"]) == [
        {"type": "choose", "card": no, "zone": "ablage"}, {"type": "choose", "card": no, "zone": "deck"}]


def test_waehlen_from_the_ablage_leaves_the_draw_pile_unsearched():
    sc = _choose_einladung({})
    sc.do(0, {"type": "activate", "card": sc._find(0, "Vor den Mauern"), "ability": 0})
    sc.decline(1)
    deck = list(sc.state["p"][0]["deck"])
    step = sc.do(0, {"type": "choose", "card": no_of("Einladung"), "zone": "ablage"})
    assert sc.zone(0, "ablage") == [] and sc.state["p"][0]["deck"] == deck
    assert "shuffle" not in [e["type"] for e in step.events] and not step.reveals
    assert [e for e in step.events if e["type"] == "choose"][0]["source"] == "ablage"


def test_waehlen_old_shape_without_zone_is_still_accepted():
    sc = _choose_einladung({})
    sc.do(0, {"type": "activate", "card": sc._find(0, "Vor den Mauern"), "ability": 0})
    sc.decline(1)
    step = ENGINE.apply(sc.state, 0, {"type": "choose", "card": no_of("Einladung")})
    ev = [e for e in step.events if e["type"] == "choose"][0]
    assert ev["source"] == "deck"  # as before: the Nachziehstapel first


def test_waehlen_with_a_zone_that_does_not_hold_the_card_is_refused():
    sc = _choose_einladung({})
    sc.do(0, {"type": "activate", "card": sc._find(0, "Vor den Mauern"), "ability": 0})
    sc.decline(1)
    e = sc.illegal(0, {"type": "choose", "card": no_of("Einladung"), "zone": "aussen"})
    assert e.reason_de


# -- the reaction window reveals nothing ------------------------------------------------------

def knappe_actor():
    return {"path": "schwert", "rank": "IV", "hand": ["Mächtige Statur", "Mächtige Statur", "Kraft", "Demut"],
            "deck": ["Demut"] * 10}


def test_every_opponent_is_asked_whether_or_not_they_hold_a_reaction():
    holds = Scenario([knappe_actor(), {"rank": "IV", "hand": ["Einspruch", "Treueschwur"]}, {"hand": ["Demut"]}])
    empty = Scenario([knappe_actor(), {"rank": "IV", "hand": ["Demut", "Demut"]}, {"hand": ["Demut"]}])
    for sc in (holds, empty):
        sc.do(0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1})
    # what the actor sees right after announcing is the same either way
    assert ENGINE.view(holds.state, 0) == ENGINE.view(empty.state, 0)
    assert holds.to_move() == empty.to_move() == [1]
    assert {"type": "decline"} in empty.legal(1)


def test_the_actors_view_after_announcing_does_not_depend_on_others_hands():
    # the generic form: redraw seat 1's hand (resample_hidden) before the same announcement
    sc = Scenario([knappe_actor(), {"rank": "IV", "hand": ["Einspruch", "Treueschwur"],
                                    "deck": ["Demut"] * 6}, {"hand": ["Demut"], "deck": ["Demut"] * 3}])
    act = {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1}
    base = ENGINE.apply(sc.state, 0, act)
    for k in range(8):
        other = PLUGIN.resample_hidden(sc.state, 1, Rng(k))
        other["rng"] = sc.state["rng"]
        step = ENGINE.apply(other, 0, act)
        assert ENGINE.view(step.state, 0) == ENGINE.view(base.state, 0)
        assert ENGINE.to_move(step.state) == ENGINE.to_move(base.state)
        assert [e for e in step.events if "to" not in e] == [e for e in base.events if "to" not in e]


def test_after_a_reaction_the_reactor_is_asked_again_whatever_it_still_holds():
    # Wachsamkeit does not prevent; whether seat 1 is asked once more must not tell the table
    # whether it holds a second reaction
    sc = Scenario([{"auslage": ["Waffenübung"], "deck": ["Demut"] * 10},
                   {"hand": ["Wachsamkeit"], "deck": ["Gebet"] * 5}, {"deck": ["Gebet"] * 5}])
    sc.auto_decline = False
    sc.activate(0, "Waffenübung", 0)
    sc.react(1, "Wachsamkeit", 0)
    assert sc.to_move() == [1] and sc.legal(1) == [{"type": "decline"}]


def test_the_retired_never_ask_flag_of_an_old_match_declines_like_any_other_and_shows_nowhere():
    from games.orden.plugin import PLUGIN
    sc = Scenario([knappe_actor(), {"rank": "IV", "hand": ["Einspruch", "Treueschwur"], "never_ask": True},
                   {"hand": ["Demut"]}])
    step = sc.do(0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1})
    assert sc.to_move() == [2]
    assert {"type": "decline", "seat": 1} in step.events  # the same line as a manual decline
    for viewer in (None, 0, 1, 2):  # gone from every view (orders live outside the state)
        assert all("never_ask" not in sv for sv in ENGINE.view(sc.state, viewer)["seats"])
    # an old log's switch is told to the player alone; others' log shows no setting
    sc2 = Scenario([{}, {}])
    step = sc2.legacy(0, {"type": "never_ask", "value": True})
    assert all(e.get("to") == [0] for e in step.events if e["type"] == "never_ask")
    assert PLUGIN.public_action({"type": "never_ask", "value": True}, 0, 1) == {"type": "setting"}
    assert PLUGIN.public_action({"type": "never_ask", "value": True}, 0, None) == {"type": "setting"}
    assert PLUGIN.public_action({"type": "decline", "never_ask": True}, 1, 0) == {"type": "decline"}
    assert PLUGIN.public_action({"type": "decline", "never_ask": True}, 1, 1) == {"type": "decline", "never_ask": True}
    sc3 = Scenario([knappe_actor(), {"rank": "IV", "hand": ["Einspruch", "Treueschwur"]}])
    sc3.do(0, {"type": "activate", "card": sc3._find(0, "Knappe"), "ability": 1})
    step = sc3.legacy(1, {"type": "decline", "never_ask": True})
    assert [e for e in step.events if "to" not in e] == [{"type": "decline", "seat": 1}]


# -- payments: hidden until final; instance ids do not survive a reshuffle ---------------------

def test_picks_of_a_payment_are_logged_without_the_card_for_others():
    sc = Scenario([knappe_actor(), {}])
    sc.do(0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1})
    sc.decline(1)
    pick = sc._pick(0, "Kraft")
    assert PLUGIN.public_action(pick, 0, 1) == {"type": "pay"}
    assert PLUGIN.public_action(pick, 0, None) == {"type": "pay"}
    assert PLUGIN.public_action(pick, 0, 0) == pick
    step = sc.do(0, pick)
    assert not step.reveals  # a pick may still be taken back …
    sc.do(0, sc._pick(0, "Mächtige Statur"))
    final = sc.do(0, sc._pick(0, "Mächtige Statur"))
    assert final.reveals  # … the pick that completes the payment shows the cards: final


def test_instance_ids_are_renewed_when_the_ablage_becomes_the_draw_pile():
    sc = Scenario([{"ablage": ["Demut", "Kraft", "Gebet", "Treueschwur", "Vision"]}, {}])
    before = {i: sc.state["ci"][i] for i in sc.state["p"][0]["ablage"]}
    seen = set()
    for seed in range(12):
        sc.state["rng"] = seed
        st = ENGINE.apply(sc.state, 0, {"type": "end_turn"}).state
        hand = st["p"][0]["hand"]
        assert sorted(hand) == sorted(before)  # the same ids …
        seen.add(tuple(st["ci"][i] for i in sorted(hand)))
    assert len(seen) > 1  # … but which card an id names is drawn anew
    assert json.loads(json.dumps(sc.state)) == sc.state


# -- undo: never when an action exposed anything about another hand -------------------------

def test_an_action_whose_outcome_depends_on_another_hand_cannot_be_taken_back():
    """Non-interference through ``apply``: the same action from a position where another
    seat's secrets are redrawn (``resample_hidden``) must look the same to the actor — its view,
    who is to move, the public events — unless the step says ``reveals`` (then the platform
    refuses undo)."""
    import random

    from games.orden.roster import BOTS

    checked = 0
    for game in range(6):
        st = ENGINE.setup(3, {}, 100 + game, [{"deck": f"starter:{p}"} for p in ("schwert", "hammer", "buch")])
        pick = random.Random(game)
        bot = BOTS["heuristic" if game % 2 else "random"]
        for k in range(160):
            if ENGINE.outcome(st) is not None:
                break
            seat = ENGINE.to_move(st)[0]
            action = bot(st, seat, Rng(pick.getrandbits(32)))
            step = ENGINE.apply(st, seat, action)
            if not step.reveals:
                seen = (ENGINE.view(step.state, seat), ENGINE.to_move(step.state),
                        [e for e in step.events if "to" not in e or seat in e["to"]])
                for other in range(3):
                    if other == seat:
                        continue
                    alt = PLUGIN.resample_hidden(st, other, Rng(k * 7 + other))
                    alt["rng"] = st["rng"]
                    alt["p"][seat]["deck"] = list(st["p"][seat]["deck"])
                    got = ENGINE.apply(alt, seat, action)
                    assert (ENGINE.view(got.state, seat), ENGINE.to_move(got.state),
                            [e for e in got.events if "to" not in e or seat in e["to"]]) == seen, \
                        f"{action} by seat {seat} told it about seat {other}'s hand without reveals"
                    checked += 1
            st = step.state
    assert checked > 300
