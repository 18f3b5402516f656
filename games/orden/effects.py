"""Mutations of a (copied) game state: zone moves, costs, verbs, triggers, turn flow, end."""
from __future__ import annotations

from games.orden import rules as R
from games.orden.legal import blocked_key, choice_cost, has_reaction, startable
from games.orden.schema import PLAIN
from games.rng import Rng


def copy_state(st: dict) -> dict:
    """A copy deep enough that apply never mutates its input (ci/own/opts are never written)."""
    new = dict(st)
    new["p"] = [{k: (v[:] if type(v) is list else v) for k, v in p.items()} for p in st["p"]]
    new["t"] = {k: (v[:] if type(v) is list else v) for k, v in st["t"].items()}
    if st["pend"] is not None:
        new["pend"] = {k: (v[:] if type(v) is list else v) for k, v in st["pend"].items()}
    if st["res"] is not None:
        new["res"] = {k: (v[:] if type(v) is list else v) for k, v in st["res"].items()}
    new["trig"] = st["trig"][:]
    return new


def fresh_turn() -> dict:
    return {"plays": 0, "acts": 0, "xplay": 0, "xact": 0, "blocked": [], "once": []}


class Ctx:
    def __init__(self, st):
        self.st = st
        self.events = []
        self.reveals = False
        self.rng = Rng(st["rng"])

    def ev(self, **e):
        self.events.append(e)

    def done(self):
        self.st["rng"] = self.rng.state
        return self.st


# -- zones --------------------------------------------------------------------------------

def zone_of(p, iid):
    for z in ("hand", "auslage", "deck", "ablage", "aussen"):
        if iid in p[z]:
            return z
    return None


def move(ctx, s, iid, src, dst):
    p = ctx.st["p"][s]
    p[src].remove(iid)
    p[dst].append(iid)
    if src == "hand" and iid in p["known"]:
        p["known"].remove(iid)
    if src == "deck":
        refill(ctx, s)


def refill(ctx, s):
    """An empty Nachziehstapel is at once replaced by the shuffled Ablage."""
    p = ctx.st["p"][s]
    if not p["deck"] and p["ablage"]:
        deck = p["ablage"]
        p["ablage"] = []
        ctx.rng.shuffle(deck)
        p["deck"] = deck
        ctx.reveals = True
        ctx.ev(type="reshuffle", seat=s, n=len(deck))


def draw(ctx, s, n):
    p = ctx.st["p"][s]
    got = []
    for _ in range(n):
        if not p["deck"]:
            break
        iid = p["deck"].pop()
        p["hand"].append(iid)
        got.append(iid)
        refill(ctx, s)
    if got:
        ctx.reveals = True
        ctx.ev(type="draw", seat=s, n=len(got))
        ctx.ev(type="drew", seat=s, to=[s], cards=[ctx.st["ci"][i] for i in got])


def put_in_play(ctx, s, iid, src):
    """Into the Auslage; a card of the same TYPE lying there is discarded first."""
    p = ctx.st["p"][s]
    c = R.card(ctx.st, iid)
    if c.type:
        for other in list(p["auslage"]):
            if R.card(ctx.st, other).type == c.type:
                move(ctx, s, other, "auslage", "ablage")
                ctx.ev(type="replaced", seat=s, card=ctx.st["ci"][other], by=c.no)
    move(ctx, s, iid, src, "auslage")


# -- rules --------------------------------------------------------------------------------

def pay_costs(ctx, s, iid, ability, pay):
    p = ctx.st["p"][s]
    for cost in ability.costs:
        dst = "ablage" if cost.verb == "discard" else "aussen"
        ids = [iid] if cost.what == "self" else list(pay or ())
        for i in ids:
            z = zone_of(p, i)
            if z is not None:
                move(ctx, s, i, z, dst)
        if ids:
            ctx.ev(type=cost.verb, seat=s, cards=[ctx.st["ci"][i] for i in ids])


def run_verbs(ctx, s, iid, ability, start=0, res=None) -> bool:
    """Run the verbs from index ``start``; True if a ``wählen`` waits for the player."""
    st = ctx.st
    verbs = ability.verbs
    for vi in range(start, len(verbs)):
        if st["phase"] == "over":
            return False
        v = verbs[vi]
        k = v.kind
        if k == "draw":
            draw(ctx, s, v.n)
        elif k == "ascend":
            for _ in range(v.n):
                if not ascend(ctx, s):
                    break
        elif k == "descend":
            r = R.rank(st, s)
            targets = [s] if v.who == "you" else [o for o in range(st["n"]) if o != s]
            for o in targets:
                if v.who == "higher_opponents" and R.rank(st, o) <= r:
                    continue
                for _ in range(v.n):
                    descend(ctx, o)
        elif k == "choose":
            if res is None:
                continue  # schema: only rules a player resolves may choose
            if res["vi"] != vi:
                res["vi"], res["left"] = vi, v.n
            while res["left"] > 0:
                nos = R.choosable(st, s, v, exclude=(iid,))
                if not nos:
                    break  # runs as far as it can
                if len(nos) > 1:
                    return True
                take_chosen(ctx, s, iid, v, nos[0])
                res["left"] -= 1
        elif k == "extra":
            key = "xplay" if v.limit == "play" else "xact"
            st["t"][key] += v.n if s == st["cur"] else 0
        elif k in ("discard_self", "remove_self"):
            p = st["p"][s]
            if iid in p["auslage"]:
                move(ctx, s, iid, "auslage", "ablage" if k == "discard_self" else "aussen")
                ctx.ev(type=k.split("_")[0], seat=s, cards=[st["ci"][iid]])
        # "prevent" is handled when the reaction's resolution ends
    return False


def take_chosen(ctx, s, src_iid, verb, no):
    st = ctx.st
    found = R.find_chosen(st, s, verb, no, exclude=(src_iid,))
    if found is None:
        return
    iid, zone = found
    to = verb.to
    if to == "play" and st["t"]["plays"] >= R.limit(st, s, "play"):
        to = "hand"  # no play left: the rule runs as far as it can
    ctx.ev(type="choose", seat=s, card=no, source=zone, dest=to)
    if zone == "deck":
        ctx.reveals = True
    if to == "hand":
        move(ctx, s, iid, zone, "hand")
        st["p"][s]["known"].append(iid)
    else:
        if to == "play":
            st["t"]["plays"] += 1
        put_in_play(ctx, s, iid, zone)
    if zone == "deck" and st["p"][s]["deck"]:
        ctx.rng.shuffle(st["p"][s]["deck"])  # a searched Nachziehstapel is shuffled
        ctx.ev(type="shuffle", seat=s)


# -- resolving one rule: pay (step by step), choose, apply ---------------------------------

def start_rule(ctx, s, iid, ai, kind):
    ctx.st["res"] = {"seat": s, "card": iid, "ability": ai, "kind": kind, "picked": [],
                     "stage": "pay", "vi": -1, "left": 0}
    step_rule(ctx)


def cost_covered(st, res) -> bool:
    a = R.card(st, res["card"]).abilities[res["ability"]]
    cost = choice_cost(a)
    return cost is None or R.can_pay(st, res["seat"], cost, res["picked"], exclude=(res["card"],))


def step_rule(ctx):
    st = ctx.st
    res = st["res"]
    s, iid = res["seat"], res["card"]
    a = R.card(st, iid).abilities[res["ability"]]
    if res["stage"] == "pay":
        if not cost_covered(st, res):
            st["phase"] = "pay"
            return
        pay_costs(ctx, s, iid, a, res["picked"])
        res["stage"] = "verbs"
    start = res["vi"] if res["vi"] >= 0 else 0
    if run_verbs(ctx, s, iid, a, start, res):
        st["phase"] = "choose"
        return
    end_rule(ctx)


def end_rule(ctx):
    st = ctx.st
    res = st["res"]
    st["res"] = None
    if st["phase"] == "over":
        return
    st["phase"] = "main"
    if res["kind"] == "reaktion":
        a = R.card(st, res["card"]).abilities[res["ability"]]
        if any(v.kind == "prevent" for v in a.verbs):
            prevented(ctx, res["seat"])
        else:
            st["pend"]["used"].append(res["card"])
            advance_window(ctx, again=True)


def ascend(ctx, s) -> bool:
    st = ctx.st
    pf = st["p"][s]["pfad"]
    if R.card(st, pf[0]).rank == "X":
        return False
    pf.append(pf.pop(0))
    top = R.card(st, pf[0])
    ctx.ev(type="ascend", seat=s, rank=top.rank, card=top.no)
    if top.rank == "X":
        finish(ctx)
        return False
    for iid, c in R.active(st, s):
        for a in c.abilities:
            if a.kind == "effekt" and a.on == "ascend" and R.holds(st, s, a.conditions):
                run_verbs(ctx, s, iid, a)
    return True


def descend(ctx, s):
    st = ctx.st
    pf = st["p"][s]["pfad"]
    if R.card(st, pf[-1]).rank_value >= R.card(st, pf[0]).rank_value:
        return  # not ascended yet: there is nothing to descend to
    pf.insert(0, pf.pop())
    top = R.card(st, pf[0])
    ctx.ev(type="descend", seat=s, rank=top.rank, card=top.no)


def settle(ctx):
    """Effects with a condition run the moment it becomes true (edge-triggered)."""
    st = ctx.st
    for _ in range(12):
        if st["phase"] == "over":
            return
        now, fire = [], []
        prev = set(st["trig"])
        ci = st["ci"]
        for s in range(st["n"]):
            p = st["p"][s]
            for iid in (p["pfad"][0], *p["auslage"]):
                whens = R.WHEN.get(ci[iid])
                if whens is None or R.rank(st, s) < R.GATE[ci[iid]]:
                    continue
                for ai, a in whens:
                    if R.holds1(st, s, a.when) and R.holds(st, s, a.conditions):
                        key = f"{iid}:{ai}"
                        now.append(key)
                        if key not in prev:
                            fire.append((s, iid, a))
        st["trig"] = sorted(now)
        if not fire:
            return
        for s, iid, a in fire:
            run_verbs(ctx, s, iid, a)


def turn_start(ctx):
    st = ctx.st
    s = st["cur"]
    ctx.ev(type="turn", seat=s, round=st["round"])
    for iid, c in R.active(st, s):
        for a in c.abilities:
            if a.kind == "effekt" and a.on == "turn_start" and R.holds(st, s, a.conditions):
                run_verbs(ctx, s, iid, a)


def next_turn(ctx):
    st = ctx.st
    st["cur"] = (st["cur"] + 1) % st["n"]
    st["t"] = fresh_turn()
    st["phase"] = "main"
    if st["cur"] == st["start"]:
        st["round"] += 1
        if st["rounds_left"] > 0:
            st["rounds_left"] -= 1
            if st["rounds_left"] == 0:
                finish(ctx)
                return
    turn_start(ctx)


# -- reaction window ----------------------------------------------------------------------

def advance_window(ctx, again=False):
    """Ask the next seat clockwise that has a legal reaction and has not said never ask me;
    when nobody is left the Aktion resolves. ``again``: the seat that just reacted is asked
    once more if another of its cards can react (one reaction per card)."""
    st = ctx.st
    pend = st["pend"]
    n = st["n"]
    if again and has_reaction(st, pend["asked"]):
        st["phase"] = "react"
        return
    while pend["step"] < n - 1:
        pend["step"] += 1
        s = (pend["seat"] + pend["step"]) % n
        if st["p"][s]["never"]:
            continue
        if has_reaction(st, s):
            pend["asked"] = s
            st["phase"] = "react"
            return
    resolve(ctx)


def resolve(ctx):
    """The window closed without a prevention: now the costs are paid and the rule applied."""
    st = ctx.st
    pend = st["pend"]
    st["pend"] = None
    st["phase"] = "main"
    s, iid, ai = pend["seat"], pend["card"], pend["ability"]
    c = R.card(st, iid)
    a = c.abilities[ai]
    alive = iid in st["p"][s]["auslage"] or iid == st["p"][s]["pfad"][0]
    zone = "pfad" if iid == st["p"][s]["pfad"][0] else "auslage"
    if not alive or not startable(st, s, iid, a, zone):
        ctx.ev(type="fizzle", seat=s, card=c.no, ability=ai)
        return
    start_rule(ctx, s, iid, ai, "aktion")


def prevented(ctx, by):
    st = ctx.st
    pend = st["pend"]
    c = R.card(st, pend["card"])
    st["t"]["blocked"].append(blocked_key(c, pend["ability"]))
    st["pend"] = None
    st["phase"] = "main"
    ctx.ev(type="prevented", seat=pend["seat"], card=c.no, ability=pend["ability"], by=by)


# -- the end ------------------------------------------------------------------------------

def tiebreak_key(st, s) -> tuple:
    """Highest MYSTERIUM, sum of T K V W E, number of cards: all in the Auslage."""
    p = st["p"][s]
    mult = R.multipliers(st, s)
    level = total = 0
    for iid in p["auslage"]:
        c = R.card(st, iid)
        level = max(level, c.level)
        best = 0
        for o in R.deliveries(st, s, c, "auslage", mult):
            best = max(best, sum(n for q, n in o.items() if q in PLAIN or q == "?"))
        total += best
    return (level, total, len(p["auslage"]))


def finish(ctx):
    st = ctx.st
    from games.orden.scoring import league_points

    keys = {s: (R.rank(st, s),) + tiebreak_key(st, s) for s in range(st["n"])}
    lots = list(range(st["n"]))
    if len(set(keys.values())) < st["n"]:
        ctx.rng.shuffle(lots)  # lot decides what nothing else does
        ctx.reveals = True
    order = sorted(range(st["n"]), key=lambda s: (keys[s], -lots[s]), reverse=True)
    placements = []
    for place, s in enumerate(order, 1):
        label = R.card(st, st["p"][s]["pfad"][0]).rank
        placements.append({"seat": s, "place": place, "score": league_points(label), "rank": label})
    st["result"] = {"placements": sorted(placements, key=lambda x: x["seat"])}
    st["phase"] = "over"
    st["pend"] = None
    st["res"] = None
    ctx.ev(type="end", placements=st["result"]["placements"])
