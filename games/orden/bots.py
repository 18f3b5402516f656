"""Bots: ``random`` (a uniformly random legal action) and ``heuristic`` (greedy, rule based:
ascend when possible, play what the current rank needs, prevent rivals' ascents). Both
only ever pick from ``legal_actions``, so they can play every card."""
from __future__ import annotations

from games.orden import rules as R
from games.orden.legal import legal
from games.orden.schema import PLAIN

# Wählen: where a chosen card is best taken from (new cards first, the own display last)
ZONE_COST = {"deck": 0, "ablage": 1, "hand": 2, "auslage": 3}


def random_bot(state, seat, rng):
    acts = legal(state, seat)
    return acts[rng.below(len(acts))]


# -- heuristic ----------------------------------------------------------------------------

_WANTS = {}  # (rank, the Pfad's top three card numbers) → _wants: card data only, so it is kept


def _wants(state, s) -> tuple[dict, set]:
    """Property weights and TYPEs the next ascents ask for (current rank card first)."""
    pf = state["p"][s]["pfad"]
    k = (R.rank(state, s), tuple(state["ci"][i] for i in pf[:3]))
    if k not in _WANTS:
        if len(_WANTS) > 4096:
            _WANTS.clear()
        _WANTS[k] = _wants_now(state, s)
    w, types = _WANTS[k]
    return dict(w), set(types)


def _wants_now(state, s) -> tuple[dict, set]:
    w = {p: 0.2 for p in PLAIN}
    w["S"] = 0.1
    types = set()
    pf = state["p"][s]["pfad"]
    for depth, iid in enumerate(pf[:3]):
        c = R.card(state, iid)
        if depth and c.rank_value <= R.rank(state, s):
            break  # wrapped around to the bottom
        f = (1.0, 0.5, 0.25)[depth]
        for a in c.abilities:
            if not a.ascends:
                continue
            for cond in a.conditions:
                for p, n in cond.props:
                    w[p] = max(w.get(p, 0), f * (1 + n / 6))
                if cond.kind == "possess" and cond.select.type:
                    types.add(cond.select.type)
            for cost in a.costs:
                for p, n in cost.props:
                    if p != "?":
                        w[p] = max(w.get(p, 0), f * (1 + n / 6))
    return w, types


class _Eval:
    def __init__(self, state, s):
        self.state, self.s = state, s
        self.w, self.types = _wants(state, s)
        self.wild = max(self.w[p] for p in PLAIN)
        self.rank = R.rank(state, s)
        self.cache = {}

    def props_value(self, c, zone="hand"):
        best = 0.0
        for o in R.deliveries(self.state, self.s, c, zone):
            v = sum(self.wild * n if p == "?" else self.w.get(p, 0) * n for p, n in o.items())
            best = max(best, v)
        return best

    def value(self, iid):
        if iid in self.cache:
            return self.cache[iid]
        c = R.card(self.state, iid)
        v = self.props_value(c)
        if c.type in self.types:
            v += 2.5
        if c.type == "MYSTERIUM":
            v += 0.3 * c.level
        for a in c.abilities:
            if a.when is not None and a.verbs and a.verbs[0].kind in ("discard_self", "remove_self") \
                    and R.holds1(self.state, self.s, a.when):
                return self.cache.setdefault(iid, 0.0)  # would leave at once
            for st in a.statics:
                if st.kind == "limit":
                    v += {"play": 2.5, "actions": 2.0, "hand": 1.5}[st.limit] * (1 if R.holds(self.state, self.s, a.conditions) else 0.3)
                elif st.kind == "multiply":
                    v += 4.0 * self.w.get(st.prop, 0)
            if a.kind == "aktion":
                v += 0.6
            if a.kind == "effekt" and (a.on or a.once_per_turn):
                v += 1.0
            if a.kind == "reaktion":
                v += 1.0
        self.cache[iid] = v
        return v

    def play_value(self, iid):
        c = R.card(self.state, iid)
        if c.abilities and all(a.kind == "reaktion" for a in c.abilities) and not c.liefert:
            return -1.0  # keep reactions in hand for the opponents' turns
        v = self.value(iid)
        if c.type:
            for other in self.state["p"][self.s]["auslage"]:
                if R.card(self.state, other).type == c.type:
                    v -= self.value(other) + 0.5
        return v


_ability = R.ability


def heuristic_bot(state, seat, rng):
    acts = legal(state, seat)
    if len(acts) == 1:
        return acts[0]
    ev = _Eval(state, seat)
    phase = state["phase"]
    if phase == "discard":
        return min(acts, key=lambda a: (ev.value(a["card"]), a["card"]))
    if phase == "react":
        return _react(state, seat, acts, ev)
    if phase == "pay":
        return _pay(state, seat, acts, ev)
    if phase == "choose":
        # a card taken from the own Auslage or hand gains nothing (and replaying it loops)
        return max(acts, key=lambda a: (_choice_value(state, seat, a["card"], ev),
                                        -ZONE_COST.get(a.get("zone", "deck"), 0), -a["card"]))
    asc, once, other, plays = [], [], [], []
    for a in acts:
        if a["type"] == "activate":
            ab = _ability(state, a)
            (asc if ab.ascends else once if ab.once_per_turn else other).append(a)
        elif a["type"] == "play":
            plays.append(a)
    if asc:  # cheapest first: no cost, costs from the hand (it is refilled), then the rest
        return min(asc, key=lambda a: (_ascend_cost(state, a), a["card"], a["ability"]))
    if once:
        return once[0]
    if plays:
        best = max(plays, key=lambda a: (ev.play_value(a["card"]), -a["card"]))
        if ev.play_value(best["card"]) > 0:
            return best
    scored = [(_gain(state, seat, a, ev), a) for a in other]
    scored = [x for x in scored if x[0] > 0.3]
    if scored:
        return max(scored, key=lambda x: (x[0], -x[1]["card"]))[1]
    return {"type": "end_turn"}


def _gain(state, s, a, ev) -> float:
    ab = _ability(state, a)
    p = state["p"][s]
    gain = 0.0
    for v in ab.verbs:
        if v.kind == "draw":
            gain += 0.9 * v.n
        elif v.kind == "extra":
            gain += 0.8 * v.n if p["hand"] else 0
        elif v.kind == "choose":
            nos = R.choosable(state, s, v, exclude=(a["card"],))
            if nos:
                gain += max(_choice_value(state, s, no, ev, v, a["card"]) for no in nos)
        elif v.kind == "descend":
            gain += 2.5 * sum(1 for o in range(state["n"]) if o != s and R.rank(state, o) > ev.rank)
        elif v.kind == "force_discard":  # worth more the more it hurts the leaders
            from games.orden.interact import targets
            for o in targets(state, s, v):
                zone = state["p"][o][v.src]
                hit = min(v.n, len(zone) if v.select is None else
                          sum(R.matches(R.card(state, i), v.select) for i in zone))
                gain += hit * (0.5 if v.src == "hand" else 1.5) * (1.2 if R.rank(state, o) >= ev.rank else 0.5)
    loss = 0.0
    for c in ab.costs:
        if c.what == "self":
            loss += ev.value(a["card"])
        else:  # a rough price: the cheapest cards that could pay
            cands = sorted(ev.value(i) * (1.3 if z == "auslage" else 0.5) for i, z in R.candidates(state, s, c, (a["card"],)))
            loss += sum(cands[:max(c.count, sum(n for _, n in c.props))])
    return gain - loss


def _ascend_cost(state, a) -> float:
    ab = _ability(state, a)
    cost = 0.0
    for c in ab.costs:
        cost += 1.0 if c.zone == "hand" else 2.0
    return cost


def _choice_value(state, s, no, ev, verb=None, src=None) -> float:
    if verb is None:
        res = state["res"]
        verb = R.rule_card(state, res).abilities[res["ability"]].verbs[res["vi"]]
        src = res["card"]
    found = R.find_chosen(state, s, verb, no, exclude=(src,))
    if found is None or found[1] == "auslage":
        return -1.0  # taking back what already lies out gains nothing
    c = R.C[no]
    return ev.props_value(c) + (2.5 if c.type in ev.types else 0) + 0.5 + _leads_up(state, s, c)


def _pay(state, s, acts, ev):
    """Pay with the cheapest helpful card: hand before Auslage, low value first (card by card: the
    listed cheapest set, ``{"type": "pay", "cards": [...]}``, is the person's one-click choice)."""
    p = state["p"][s]
    acts = [a for a in acts if "card" in a]
    return min(acts, key=lambda a: (ev.value(a["card"]) * (1.3 if a["card"] in p["auslage"] else 0.5), a["card"]))


def _leads_up(state, s, c) -> float:
    """A card whose own rule ascends now, or fetches such a card by name, is worth much."""
    for a in c.abilities:
        if a.kind != "aktion":
            continue
        if a.ascends and R.holds(state, s, a.conditions):
            return 4.0
        for v in a.verbs:
            if v.kind == "choose" and v.select.name:
                for other in R.CS_BY_NAME.get(v.select.name, ()):
                    if any(b.ascends and R.holds(state, s, b.conditions) for b in other.abilities):
                        return 3.0
    return 0.0


# A rival's ascent is prevented only from this rank on (IX: the ascents to IX+ and X). A prevented rival keeps
# its cards and ascends next turn, while the preventer is spent or paid for: only a delay near the end wins
# games (bench/run.py orden compare --policy; docs/games/orden.md, "The pilot keeps its preventers"). 0: at the first chance.
PREVENT_FROM = 9.0


def _react(state, s, acts, ev):
    pend = state["pend"]
    target = pend["seat"]
    pa = _ability(state, {"card": pend["card"], "ability": pend["ability"]})
    reacts = [a for a in acts if a["type"] == "react"]
    preventers = [a for a in reacts if R.prevents(state, a)]
    # a rival ranked at least as high, or at VI and above; and not before PREVENT_FROM
    if preventers and pa.ascends and R.rank(state, target) >= max(PREVENT_FROM, min(ev.rank, 6)):
        return preventers[0]
    shields = [a for a in preventers if _ability(state, a).on == "hostile"]
    if shields and pa.hostile:  # protect the own hand / Auslage
        return shields[0]
    others = [a for a in reacts if a not in preventers and (_ability(state, a).costs == () or
                                                         any(c.what == "self" for c in _ability(state, a).costs)
                                                         or R.rank(state, target) >= ev.rank)]
    if others:
        return others[0]
    return {"type": "decline"}
