"""The ``lookahead`` bot: one ply of search over resampled hidden information.

At each of its own main-phase decisions it redraws everything it cannot see (the other
hands except cards shown to all, every deck's order, the engine's RNG) with the plugin's
``resample_hidden`` — so it never peeks — then tries every legal action in that sampled
world, lets the heuristic bot finish what follows (its own payments and choices, the
opponents' reactions) until it is back at a main-phase decision or its turn is over, and
scores the position. A few samples are averaged. Other phases (pay, choose, react, discard)
use the heuristic bot, whose choices there are already one-step greedy.
"""
from __future__ import annotations

from games.orden import rules as R
from games.orden.bots import heuristic_bot
from games.orden.hidden import resample_hidden
from games.orden.legal import legal, startable
from games.rng import Rng

SAMPLES = 2
FOLLOW_STEPS = 80
# the seed suggests 30-50 rounds for a game with a round counter; nearly every simulated game has ended by 60
LONG_GAME = 60


def _canonical(state, s):
    """Forget what ``s`` cannot know before sampling: every other seat's unshown hand cards and
    deck are pooled and sorted, every deck (also the own) sorted, the engine's RNG zeroed. Two
    states that ``s`` cannot tell apart become the same state, so the samples cannot depend on
    hidden information."""
    from games.orden.effects import copy_state
    st = copy_state(state)
    for o, p in enumerate(st["p"]):
        if o != s:
            free = sorted([i for i in p["hand"] if i not in p["known"]] + p["deck"])
            k = len(p["hand"]) - sum(1 for i in p["hand"] if i in p["known"])
            p["hand"] = [i for i in p["hand"] if i in p["known"]] + free[:k]
            p["deck"] = free[k:]
        else:
            p["deck"] = sorted(p["deck"])
    st["rng"] = 0
    return st


def _determinize(state, s, rng):
    st = _canonical(state, s)
    for o in range(state["n"]):
        if o != s:
            st = resample_hidden(st, o, Rng(rng.next64()))
    if state["n"] == 1:
        st = resample_hidden(st, None, Rng(rng.next64()))
    return st


def _progress(state, s) -> float:
    """How close ``s`` is to its next ascent: 1 if an ascending rule could start now, else the
    share of the cheapest ascending rule's property total that hand and Auslage deliver."""
    p = state["p"][s]
    top = p["pfad"][0]
    c = R.card(state, top)
    best = 0.0
    mult = R.multipliers(state, s)
    for a in c.abilities:
        if a.kind != "aktion" or not a.ascends:
            continue
        if startable(state, s, top, a, "pfad"):
            return 1.0
        need = R.props_needed(a)
        total = sum(need.values())
        if not total:
            continue
        have = 0
        for zone in ("hand", "auslage"):
            for iid in p[zone]:
                opts = R.deliveries(state, s, R.card(state, iid), zone, mult if zone == "auslage" else None)
                have += max((sum(n for q, n in o.items() if q in need or (q == "?" and q != "S")) for o in opts), default=0)
        best = max(best, min(have / total, 1.0) * 0.9)
    return best


def score(state, s) -> float:
    res = state["result"]
    if res is not None:
        place = next(x["place"] for x in res["placements"] if x["seat"] == s)
        return 1000.0 if place == 1 else -1000.0

    def one(o):
        p = state["p"][o]
        return (10.0 * R.rank(state, o) + 6.0 * _progress(state, o) + 0.35 * len(p["hand"])
                + 0.15 * len(p["auslage"]) + 0.05 * len(p["deck"]))
    mine = one(s)
    rivals = [one(o) for o in range(state["n"]) if o != s]
    return mine - max(rivals)


def _follow(engine, st, s, rng):
    """Let the heuristic bot play on (every seat: own payments, the rest of the own turn, the
    opponents' reactions) until the turn of ``s`` is over, so every candidate is scored at the
    same moment (after the hand was refilled)."""
    for _ in range(FOLLOW_STEPS):
        if st["result"] is not None or st["cur"] != s:
            return st
        seat = engine.to_move(st)[0]
        st = engine.apply_legal(st, seat, heuristic_bot(st, seat, rng)).state  # the bot picks from legal()
    return st


def _distinct(state, acts):
    """One action per (type, card number, rule): two copies of a card played or used do the
    same, so only the first is tried (a 2-player game has ~15 % fewer playouts)."""
    seen, out = set(), []
    ci = state["ci"]
    for a in acts:
        k = (a["type"], ci[a["card"]] if "card" in a else None, a.get("ability"))
        if k not in seen:
            seen.add(k)
            out.append(a)
    return out


def lookahead_bot(state, seat, rng):
    if state["phase"] != "main":
        return heuristic_bot(state, seat, rng)
    acts = _distinct(state, legal(state, seat))
    if len(acts) == 1:
        return acts[0]
    if state["round"] > LONG_GAME:
        # Past round LONG_GAME an ascent it can start comes first: at IX a found Schwert deck spent its action
        # on a Kraft contest for 200 rounds, as a try scored a little below that (a rival's Einspruch would
        # prevent it, and the next try would not have been), and the game ran to the cap. A
        # prevented ascent costs the actor nothing. Before that round, games play as they did.
        for a in acts:
            if a["type"] == "activate" and R.ability(state, a).ascends:
                return a
    from games.orden.engine import ENGINE
    totals = [0.0] * len(acts)
    for _ in range(SAMPLES):
        world = _determinize(state, seat, rng)
        for i, a in enumerate(acts):
            st = ENGINE.apply_legal(world, seat, a).state
            st = _follow(ENGINE, st, seat, Rng(rng.next64()))
            totals[i] += score(st, seat)
    best = max(range(len(acts)), key=lambda i: (totals[i], acts[i]["type"] == "end_turn"))
    if acts[best]["type"] == "end_turn":
        if _standstill(state, seat):
            return heuristic_bot(state, seat, rng)
        # an ascent that scores as well as ending the turn is tried: if a rival prevents it, that costs the
        # rival its cards and the actor nothing. Two Großmeisters that prevent every ascent of the third
        # seat, which ended its turns instead, held a 3-player game until the 300-round cap.
        tried = [i for i, a in enumerate(acts) if totals[i] >= totals[best] and a["type"] == "activate"
                 and R.ability(state, a).ascends]
        if tried:
            return acts[tried[0]]
    return acts[best]


def _standstill(state, s) -> bool:
    """Ending now would leave the position as it was: nothing played or activated this turn and a
    full hand, so nothing is drawn either. Two lookahead bots at IX ended turn after turn until
    the 300-round cap (2 of 300 paired games, data version 4); the heuristic bot moves on."""
    t = state["t"]
    return t["plays"] == 0 and t["acts"] == 0 and len(state["p"][s]["hand"]) >= R.limit(state, s, "hand")
