"""Der Orden's standing orders: reaction policies and automatic payment, answered in
the same step as the decision opens, and indistinguishable for others from a person's answer."""
import json

import pytest
from orden_scenario import Scenario

from games.base import BadOptions
from games.order_loop import answer_by_orders
from games.orden.engine import ENGINE
from games.orden.orders import ascent_target
from games.orden.plugin import PLUGIN
from games.rng import Rng

NEVER = [{"kind": "reactions", "policy": "never"}]
ASK = [{"kind": "reactions", "policy": "ask"}]
AUTO = [{"kind": "payment", "policy": "auto"}]


def prevent(rank):
    return [{"kind": "reactions", "policy": "prevent_ascents", "min_rank": rank}]


def actor(**kw):  # Knappe (IV) ascends to Ritter (V), paying 3 cards' worth of K after the window
    return {"path": "schwert", "rank": "IV", "hand": ["Mächtige Statur", "Mächtige Statur", "Kraft", "Demut"],
            "deck": ["Demut"] * 10, **kw}


def objector(**kw):
    return {"path": "hammer", "rank": "IV", "hand": ["Einspruch", "Treueschwur", "Treueschwur"],
            "deck": ["Demut"] * 10, **kw}


def knappe(sc):
    return {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1}


def run(sc, seat, action, orders):
    """Apply a person's action, then let the orders answer as the platform will."""
    step = ENGINE.apply(sc.state, seat, action)
    state, applied = answer_by_orders(PLUGIN, step.state, orders)
    sc.state = json.loads(json.dumps(state))
    return [step] + [s for _, _, s in applied], applied


# -- the kinds and their cleaning -------------------------------------------------------------

def test_kinds_are_declared_with_schemas_and_both_texts():
    kinds = {k.kind: k.as_json() for k in PLUGIN.order_kinds()}
    assert set(kinds) == {"reactions", "payment"}
    assert kinds["reactions"]["schema"]["properties"]["policy"]["enum"] == ["ask", "never", "prevent_ascents"]
    assert "VII" in kinds["reactions"]["schema"]["properties"]["min_rank"]["enum"]
    for k in kinds.values():
        assert k["text"]["en"] and k["text"]["de"] and k["text"]["en"] != k["text"]["de"]
    json.dumps(kinds)


@pytest.mark.parametrize("order", [
    {"kind": "reactions", "policy": "never"}, {"kind": "reactions", "policy": "ask"},
    {"kind": "reactions", "policy": "prevent_ascents", "min_rank": "VII"},
    {"kind": "reactions", "policy": "prevent_ascents", "min_rank": "IX+"}, {"kind": "payment", "policy": "auto"}])
def test_clean_order_keeps_good_orders(order):
    assert PLUGIN.clean_order(dict(order)) == order


@pytest.mark.parametrize("order", [
    {"kind": "reactions", "policy": "prevent_ascents"}, {"kind": "reactions", "policy": "prevent_ascents", "min_rank": "XI"},
    {"kind": "reactions", "policy": "sometimes"}, {"kind": "reactions", "policy": "never", "min_rank": "VII"},
    {"kind": "reactions", "policy": "never", "x": 1}, {"kind": "payment", "policy": "manual"},
    {"kind": "payment", "policy": "auto", "max": 3}, {"kind": "castle"}, {"policy": "never"}, "never", None])
def test_clean_order_refuses_with_both_languages(order):
    with pytest.raises(BadOptions) as e:
        PLUGIN.clean_order(order)
    assert e.value.message and e.value.message_de and e.value.message != e.value.message_de


# -- answering windows ------------------------------------------------------------------------

def test_ask_leaves_the_window_to_the_person_and_never_declines_at_once():
    sc = Scenario([actor(), objector(), objector()])
    sc.state = ENGINE.apply(sc.state, 0, knappe(sc)).state
    assert PLUGIN.ordered_action(sc.state, 1, ASK) is None
    assert PLUGIN.ordered_action(sc.state, 1, AUTO) is None  # no reactions order: the person is asked
    assert PLUGIN.ordered_action(sc.state, 1, NEVER) == {"type": "decline"}
    assert PLUGIN.ordered_action(sc.state, 2, NEVER) is None  # not asked now
    # orders that were not cleaned never act (the platform stores only cleaned ones)
    assert PLUGIN.ordered_action(sc.state, 1, [{"kind": "reactions", "policy": "prevent_ascents"}]) is None
    assert PLUGIN.ordered_action(sc.state, 1, [{"kind": "reactions", "policy": "maybe"}]) is None
    assert PLUGIN.ordered_action(sc.state, 1, [{"kind": "reactions", "policy": "ask"}] + NEVER) == {"type": "decline"}


def test_a_window_closed_by_orders_looks_like_one_where_nobody_wanted_to_react():
    # seat 1 holds a reaction and the order never; seat 2 holds none and prevent_ascents
    by_orders = Scenario([actor(), objector(), objector(hand=["Demut"])])
    steps, applied = run(by_orders, 0, knappe(by_orders), {1: NEVER, 2: prevent("IV")})
    assert [a for _, a, _ in applied] == [{"type": "decline"}, {"type": "decline"}]
    assert by_orders.state["phase"] == "pay" and ENGINE.to_move(by_orders.state) == [0]
    # the same window answered by people, one decline at a time
    by_hand = Scenario([actor(), objector(), objector(hand=["Demut"])])
    by_hand.auto_decline = False
    hand_steps = [by_hand.do(0, knappe(by_hand)), by_hand.do(1, {"type": "decline"}), by_hand.do(2, {"type": "decline"})]
    assert by_orders.state == by_hand.state  # orders live outside the state
    for viewer in (None, 0, 1, 2):
        assert ENGINE.view(by_orders.state, viewer) == ENGINE.view(by_hand.state, viewer)
    assert [s.events for s in steps] == [s.events for s in hand_steps]
    assert [s.reveals for s in steps] == [s.reveals for s in hand_steps]
    for seat in (1, 2):  # what the log shows of the answers
        assert PLUGIN.public_action(applied[seat - 1][1], seat, 0) == {"type": "decline"}


def test_prevent_ascents_prevents_from_its_rank_with_the_cheapest_reaction_and_pays_automatically():
    # version 20's Einspruch costs 2x T besides itself (version 21's only itself): a reaction that is paid for
    sc = Scenario([actor(), objector()], version=20)
    sc.state = ENGINE.apply(sc.state, 0, knappe(sc)).state
    assert ascent_target(sc.state, sc.state["pend"]) == 5.0  # Ritter, rank V
    assert PLUGIN.ordered_action(sc.state, 1, prevent("VI")) == {"type": "decline"}  # below VI: let it pass
    assert PLUGIN.ordered_action(sc.state, 1, prevent("VII")) == {"type": "decline"}
    sc = Scenario([actor(), objector()], version=20)
    steps, applied = run(sc, 0, knappe(sc), {1: prevent("V") + AUTO})
    assert applied[0][1] == {"type": "react", "card": sc._find(1, "aussen:Einspruch", ("aussen",)), "ability": 0}
    assert [a["type"] for _, a, _ in applied] == ["react", "pay"]  # one Treueschwur covers 2x T
    assert sc.rank(0) == "IV" and sc.state["phase"] == "main" and ENGINE.to_move(sc.state) == [0]
    assert sc.zone(1, "ablage") == ["Treueschwur"] and sc.zone(1, "aussen") == ["Einspruch"]  # data version 6
    assert sc.state["t"]["blocked"] == ["Knappe|1"]


def test_a_reaction_of_the_current_data_is_paid_automatically_too():
    # version 21: Bestechung (3x V from the hand besides itself) is a paid-for preventer of the current cards
    briber = objector(hand=["Bestechung", "Goldbarren", "Silberling", "Treueschwur"])
    sc = Scenario([actor(), briber])
    _, applied = run(sc, 0, knappe(sc), {1: prevent("V") + AUTO})
    assert [a["type"] for _, a, _ in applied] == ["react", "pay", "pay"]  # Goldbarren 2x V + Silberling 1x V
    assert sc.rank(0) == "IV" and sc.state["phase"] == "main"
    assert sc.zone(1, "aussen") == ["Bestechung"] and sorted(sc.zone(1, "ablage")) == ["Goldbarren", "Silberling"]
    assert sc.zone(1, "hand") == ["Treueschwur"]


def test_without_the_payment_order_the_person_pays_for_the_reaction():
    sc = Scenario([actor(), objector()], version=20)  # a reaction paid for (version 21's Einspruch is not)
    _, applied = run(sc, 0, knappe(sc), {1: prevent("V")})
    assert [a["type"] for _, a, _ in applied] == ["react"]
    assert sc.state["phase"] == "pay" and ENGINE.to_move(sc.state) == [1]


def test_automatic_payment_picks_the_cheapest_covering_cards_deterministically():
    # 5x K: 2 + 2 + 1 (three cards), not four; Demut does not help
    runs = []
    for _ in range(2):
        sc = Scenario([actor(hand=["Mächtige Statur", "Mächtige Statur", "Kraft", "Kraft", "Demut"]), objector()])
        _, applied = run(sc, 0, knappe(sc), {0: AUTO, 1: NEVER})
        runs.append([a for _, a, _ in applied])
        assert sc.rank(0) == "V" and sc.state["phase"] == "main"
        assert sorted(sc.zone(0, "ablage")) == ["Kraft", "Mächtige Statur", "Mächtige Statur"]
        assert sorted(sc.zone(0, "hand")) == ["Demut", "Kraft"]
    assert runs[0] == runs[1] and [a["type"] for a in runs[0]] == ["decline", "pay", "pay", "pay"]


def test_automatic_payment_continues_a_payment_the_person_began():
    sc = Scenario([actor(), objector()])
    sc.state = ENGINE.apply(sc.state, 0, knappe(sc)).state
    sc.state = ENGINE.apply(sc.state, 1, {"type": "decline"}).state
    first = sc._pick(0, "Kraft")
    sc.state = ENGINE.apply(sc.state, 0, first).state
    state, applied = answer_by_orders(PLUGIN, sc.state, {0: AUTO})
    assert all(a["type"] == "pay" for _, a, _ in applied) and applied
    assert ENGINE.view(state, 0)["seats"][0]["rank"] == "V"


def test_orders_only_ever_take_legal_actions_and_games_with_orders_end():
    from games.orden.bots import heuristic_bot
    orders = {0: prevent("VII") + AUTO, 1: NEVER + AUTO, 2: prevent("II"), 3: AUTO}
    for seed in (1, 2):
        st = ENGINE.setup(4, {}, seed, [{"deck": f"starter:{p}"} for p in ("schwert", "hammer", "buch", "schwert")])
        rng = Rng(seed)
        answered = 0
        for _ in range(4000):
            if st["result"] is not None:
                break
            for seat in ENGINE.to_move(st):
                a = PLUGIN.ordered_action(st, seat, orders[seat])
                if a is not None:
                    assert a in ENGINE.legal_actions(st, seat)
                    answered += 1
                    break
            else:
                seat = ENGINE.to_move(st)[0]
                a = heuristic_bot(st, seat, rng)
            st = ENGINE.apply(st, seat, a).state
        assert st["result"] is not None and answered > 20
