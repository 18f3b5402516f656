"""Der Orden's standing orders (``platform.md``/``orden.md``, "Playing over days").

Two kinds, answered by ``ordered_action`` in the same step as the decision opens:
- ``reactions``: ``ask`` (the person decides), ``never`` (decline every window) or
  ``prevent_ascents`` from ``min_rank`` (the cheapest legal reaction that prevents an
  opponent's ascent to that rank or higher, else decline);
- ``payment`` ``auto``: the seat's own payments, the cheapest covering choice.

What others receive is only the actions these produce (a decline looks like any decline);
orders live outside the state, so views cannot show them. Pure and deterministic.
"""
from __future__ import annotations

from games.base import BadOptions, OrderKind
from games.orden import effects as E
from games.orden import payment as P
from games.orden import rules as R
from games.orden.legal import choice_cost, legal
from games.orden.schema import RANKS

MIN_RANKS = tuple(r for r in RANKS if r != "0")
POLICIES = ("ask", "never", "prevent_ascents")

KINDS = (
    OrderKind(
        "reactions",
        {"type": "object", "additionalProperties": False, "required": ["kind", "policy"],
         "properties": {"kind": {"const": "reactions"}, "policy": {"enum": list(POLICIES)},
                        "min_rank": {"enum": list(MIN_RANKS)}},
         "if": {"properties": {"policy": {"const": "prevent_ascents"}}},
         "then": {"required": ["min_rank"]}},
        "Answer reaction windows for me: never react, or prevent an opponent's ascent to "
        "a chosen rank or higher with my cheapest reaction (else do not react), or ask me.",
        "Reaktionsfenster für mich beantworten: nie reagieren, oder den Aufstieg eines Gegners "
        "auf einen gewählten Rang oder höher mit meiner billigsten Reaktion verhindern (sonst nicht "
        "reagieren), oder mich fragen.",
        {"en": {"policy": "When a reaction window opens", "policy.ask": "ask me",
                "policy.never": "never react", "policy.prevent_ascents": "prevent ascents",
                "min_rank": "to this rank or higher"},
         "de": {"policy": "Wenn ein Reaktionsfenster aufgeht", "policy.ask": "mich fragen",
                "policy.never": "nie reagieren", "policy.prevent_ascents": "Aufstiege verhindern",
                "min_rank": "auf diesen Rang oder höher"}},
    ),
    OrderKind(
        "payment",
        {"type": "object", "additionalProperties": False, "required": ["kind", "policy"],
         "properties": {"kind": {"const": "payment"}, "policy": {"const": "auto"}}},
        "Pay my costs automatically with the cheapest covering cards.",
        "Meine Kosten automatisch mit den billigsten passenden Karten bezahlen.",
    ),
)


def _bad(en, de):
    raise BadOptions(en, de)


def clean_order(order) -> dict:
    if not isinstance(order, dict):
        _bad("An order must be an object.", "Eine Anweisung muss ein Objekt sein.")
    kind = order.get("kind")
    policy = order.get("policy")
    if kind == "reactions":
        extra = set(order) - {"kind", "policy", "min_rank"}
        if extra:
            _bad(f"Unknown field(s) in a reactions order: {', '.join(sorted(map(str, extra)))}.",
                 f"Unbekannte(s) Feld(er) in einer Reaktions-Anweisung: {', '.join(sorted(map(str, extra)))}.")
        if policy not in POLICIES:
            _bad("The reactions policy must be ask, never or prevent_ascents.",
                 "Die Reaktions-Anweisung muss ask, never oder prevent_ascents sein.")
        if policy != "prevent_ascents":
            if "min_rank" in order:
                _bad("min_rank belongs only to prevent_ascents.", "min_rank gehört nur zu prevent_ascents.")
            return {"kind": kind, "policy": policy}
        rank = order.get("min_rank")
        if rank not in MIN_RANKS:
            _bad(f"prevent_ascents needs min_rank, one of {', '.join(MIN_RANKS)}.",
                 f"prevent_ascents braucht min_rank, einen von {', '.join(MIN_RANKS)}.")
        return {"kind": kind, "policy": policy, "min_rank": rank}
    if kind == "payment":
        if set(order) - {"kind", "policy"} or policy != "auto":
            _bad('A payment order is {"kind": "payment", "policy": "auto"}.',
                 'Eine Bezahl-Anweisung lautet {"kind": "payment", "policy": "auto"}.')
        return {"kind": kind, "policy": policy}
    _bad(f"Der Orden knows no order of kind {kind!r}.", f"Der Orden kennt keine Anweisung der Art {kind!r}.")


def _find(orders, kind):
    # the last order of a kind counts (a PUT replaces the list; duplicates are the client's)
    found = None
    for o in orders or ():
        if isinstance(o, dict) and o.get("kind") == kind:
            found = o
    return found


def ordered_action(state, seat, orders):
    if state["phase"] == "over":
        return None
    if state["phase"] == "react" and state["res"] is None and state["pend"]["asked"] == seat:
        order = _find(orders, "reactions")
        if order is None or order.get("policy") not in ("never", "prevent_ascents"):
            return None
        if order["policy"] == "prevent_ascents":
            if order.get("min_rank") not in MIN_RANKS:
                return None  # not a cleaned order: the person decides
            react = prevention(state, seat, RANKS[order["min_rank"]])
            if react is not None:
                return react
        return {"type": "decline"}
    res = state["res"]
    if state["phase"] == "pay" and res is not None and res["seat"] == seat \
            and (_find(orders, "payment") or {}).get("policy") == "auto":
        return payment_pick(state, seat)
    return None


def ascent_target(state, pend) -> float:
    """The rank the pending Aktion would lift its actor to (-1 if it does not ascend)."""
    ab = R.rule_card(state, pend).abilities[pend["ability"]]
    n = sum(v.n for v in ab.verbs if v.kind == "ascend")
    if not n:
        return -1.0
    pf = state["p"][pend["seat"]]["pfad"]
    best = R.rank(state, pend["seat"])
    for iid in pf[1:n + 1]:  # ascending walks the Pfad from the top; it stops at X
        v = R.card(state, iid).rank_value
        if v <= best:
            break
        best = v
    return best


def _price(state, act) -> tuple:
    ab = R.card(state, act["card"]).abilities[act["ability"]]
    n = 0
    for c in ab.costs:
        n += 1 if c.what == "self" else c.count if c.what == "cards" else sum(k for _, k in c.props)
    return (n, act["card"], act["ability"])


def prevention(state, seat, min_value):
    """The cheapest legal reaction of ``seat`` that prevents the pending ascent, if it reaches
    ``min_value`` or higher; else None."""
    pend = state["pend"]
    if pend["seat"] == seat or ascent_target(state, pend) < min_value:
        return None
    prevents = [a for a in legal(state, seat, {"type": "react"}) if R.prevents(state, a)]
    return min(prevents, key=lambda a: _price(state, a)) if prevents else None


def payment_pick(state, seat):
    """The next card of the cheapest set that, with the cards already picked, covers the cost
    (``payment.cheapest``: fewest cards, then fewest from the Auslage, then the least delivered in
    all, then the lowest ids). None if no pick is legal (cannot happen while paying)."""
    acts = [a for a in legal(state, seat) if "card" in a]
    if not acts:
        return None
    res = state["res"]
    cost = choice_cost(R.rule_card(state, res).abilities[res["ability"]])
    best, key = P.cheapest(state, seat, cost, list(res["picked"]), [a["card"] for a in acts])
    if best is not None:
        return {"type": "pay", "card": best[0]}
    return {"type": "pay", "card": min(key, key=lambda i: key[i])}  # too many to search: the cheapest helpful card


# -- "queue a move" (the platform's premoves) ----------------------------------------------------
QUEUEABLE = ("play", "activate")


def premoves(state, seat) -> list:
    """What a waiting seat may queue for its next turn: the cards it could play and the rules it
    could use if that turn began now (a fresh turn's counters; within its own turn, while a
    window asks another seat, the turn's own). End turn is not offered (a queued pass would end
    a turn unseen). Checked again when the turn comes; one that no longer fits is dropped."""
    if state["phase"] == "over" or not 0 <= seat < state["n"]:
        return []
    own_turn = seat == state["cur"]
    hypo = {**state, "cur": seat, "phase": "main", "pend": None, "res": None, "trig": [],
            "t": state["t"] if own_turn else E.fresh_turn()}
    return [a for a in legal(hypo, seat) if a["type"] in QUEUEABLE]


def premove_due(state, seat) -> bool:
    """Queued moves wait for the seat's own main phase: a reaction window or a payment that asks
    the seat meanwhile leaves them queued (they would be refused there and dropped)."""
    return state["phase"] == "main" and state["res"] is None and state["cur"] == seat
