"""Mutations of a (copied) game state: zone moves, costs, verbs, triggers, turn flow, end."""
from __future__ import annotations

from games.orden import rules as R
from games.orden.interact import force_discard
from games.orden.legal import blocked_key, choice_cost, startable
from games.orden.schema import PLAIN
from games.orden.standstill import standstill
from games.rng import Rng


# every list in a player's dict (engine.setup) and in the turn dict (fresh_turn): copy_state
# copies exactly these, so a new list-valued key must be named here (the turn's "oncefx" is
# never changed in place, only replaced: it needs no copy)
PLAYER_LISTS = ("deck", "pfad", "hand", "auslage", "ablage", "aussen", "known")
TURN_LISTS = ("blocked", "once")

#: the state's rules version (``state["v"]``; states without it are version 1, set up before
#: engine version 2): version 2 deals instance ids that say nothing about the draw order and
#: shuffles an empty Nachziehstapel's Ablage in after every rule step. A match keeps the
#: version it was set up with, so its log replays as it was played.
V = 25  # 3: the second base set (card versions, decks.CURRENT); 4: its balance pass (Kraft, Foliant, Dekan, Triumvirat, …); 5: Triumvirat 2x ?; 6: the reactions that prevent an ascent remove what they pay with; 7: Hammer and Buch at 4 players (Der Zehnt, Zunftbrief, Lehrer); 8: Professor's cheap ascent from the hand only, like Schmied's (Buch at 3 players); 9: one BURG per deck (decks.ONE_PER_DECK), Student/Lehrer count W owned, Professor's cheap ascent with VI+ in the Pfad; 10: Student's and Lehrer's cheap ascents want a MENTOR in the Auslage; 11: Foliant draws from 8x W owned (was 6x); 12: Das Fundament at most once per deck (was twice); 13: Gnade removes itself when its ascent is used (was: discarded); 14: lean starters, 38 cards (decks.STARTER_CARDS_V14); 15: the lean starters with T back (decks.STARTER_CARDS_V15); 16: that T without Triumvirat (decks.STARTER_CARDS_V16); 17: Schwert without its fourth Gehorsam (decks.STARTER_CARDS_V17); 18: Zoll discards itself (was: 1x V from the hand, from the Auslage again and again), Triumvirat 1x T and 1x ? (was 2x ?); 19: Foliant delivers 2x W or, from RANG VII on, 2x E (was: 2x W); 20: Schwert's fourth Gehorsam back (decks.STARTER_CARDS_V20); 21: Einspruch only for a player whose turn in the round is still to come, in every starter (decks.STARTER_CARDS_V21); 22: Stillstand, a game in which no player can ever ascend again ends (games/orden/standstill.py), Triumvirat delivers from RANG VI on; 23: thin starters, 31-35 cards (decks.STARTER_CARDS_V23); 24: Schwert without a third Kraft, 30 cards (decks.STARTER_CARDS_V24); 25: Einspruch only for the next seat to move in the round (condition next_to_move); no other rule of the engine changed since 13 (21 adds the condition yet_to_move to the card language, 25 next_to_move)


def v2(st) -> bool:
    return st.get("v", 1) >= 2


def _copy(d: dict, keys) -> dict:
    new = d.copy()
    for k in keys:
        new[k] = d[k][:]
    return new


def _copy_lists(d: dict) -> dict:
    new = d.copy()
    for k, v in d.items():
        if v.__class__ is list:
            new[k] = v[:]
    return new


def _copy_player(p: dict) -> dict:
    if len(p) != 9:  # not the shape engine.setup makes: the general copy
        return _copy(p, PLAYER_LISTS)
    # the shape of engine.setup, keys in its order (a literal is the cheapest copy)
    return {"deck": p["deck"][:], "pfad": p["pfad"][:], "hand": p["hand"][:], "auslage": p["auslage"][:],
            "ablage": p["ablage"][:], "aussen": p["aussen"][:], "known": p["known"][:], "never": p["never"],
            "path": p["path"]}


def copy_state(st: dict) -> dict:
    """A copy deep enough that apply never mutates its input (ci/own/opts are never written;
    ci is copied on write). Runs once per apply, so it copies only the lists."""
    new = st.copy()
    new["p"] = [_copy_player(p) for p in st["p"]]
    t = st["t"]
    new["t"] = {**t, "blocked": t["blocked"][:], "once": t["once"][:]}
    if st["pend"] is not None:
        new["pend"] = _copy_lists(st["pend"])
    if st["res"] is not None:
        new["res"] = _copy_lists(st["res"])
    new["trig"] = st["trig"][:]
    return new


def fresh_turn() -> dict:
    # once: the groups of once-per-turn effects used; oncefx: [card number, rule index] of each
    # use (a better effect of a used group tops the used one up, see legal.activations)
    return {"plays": 0, "acts": 0, "xplay": 0, "xact": 0, "blocked": [], "once": [], "oncefx": []}


class Ctx:
    def __init__(self, st):
        self.st = st
        self.events = []
        self.reveals = False
        self.rng = Rng(st["rng"])
        self.actor = None  # the seat whose action this is (None: set-up)

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
        p["deck"] = shuffled_ids(ctx, deck)
        ctx.reveals = True
        ctx.ev(type="reshuffle", seat=s, n=len(deck))


def refill_all(ctx):
    """„Ist der Nachziehstapel leer, wird der Ablagestapel gemischt …“ is a state, not a step
    of drawing: after every rule step no seat has an empty Nachziehstapel beside a full Ablage
    (so a „wählen … aus Deinem Nachziehstapel“ finds the cards). Version 2 states only."""
    st = ctx.st
    if st.get("v", 1) >= 2:  # v2(), inlined: this runs after every rule step
        for s, p in enumerate(st["p"]):
            if not p["deck"] and p["ablage"]:
                refill(ctx, s)


def shuffled_ids(ctx, ids) -> list:
    """Shuffle a pile and deal its instance ids out anew: the card each id names is drawn
    again, so an id seen in the open Ablage (or in a log) cannot be followed into a hidden
    zone; from version 2 the ids' order is shuffled as well, so the id of a drawn card says
    nothing about when it was drawn (version 1 kept them ascending, top = last)."""
    st = ctx.st
    nos = [st["ci"][i] for i in ids]
    ctx.rng.shuffle(nos)
    ci = st["ci"] = list(st["ci"])  # ci is shared with the input state: copy on write
    order = sorted(ids)
    for i, no in zip(order, nos):
        ci[i] = no
    if v2(st):
        ctx.rng.shuffle(order)
    return order


def draw(ctx, s, n):
    p = ctx.st["p"][s]
    got = []
    for _ in range(n):
        if not p["deck"]:
            refill(ctx, s)  # the Ablage may have filled since the pile ran empty
            if not p["deck"]:
                break
        iid = p["deck"].pop()
        p["hand"].append(iid)
        got.append(iid)
        if not p["deck"] and p["ablage"]:  # refill's own test, checked here: most draws need none
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
                if z == "hand":
                    ctx.reveals = True  # hand cards shown to the table: the payment is final
        if ids:
            ctx.ev(type=cost.verb, seat=s, cards=[ctx.st["ci"][i] for i in ids])
    refill_all(ctx)


def run_verbs(ctx, s, iid, ability, start=0, res=None) -> bool:
    """Run the verbs from index ``start``; True if a ``wählen`` waits for the player."""
    st = ctx.st
    verbs = ability.verbs
    for vi in range(start, len(verbs)):
        if st["phase"] == "over":
            return False
        v = verbs[vi]
        k = v.kind
        if v.n == 0:
            continue  # what a top-up leaves of a verb the weaker effect already did (rules.topped_up)
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
            src = R.rule_source(st, res)
            while res["left"] > 0:
                opts = R.choice_options(st, s, v, exclude=(src,))
                if not opts:
                    break  # runs as far as it can
                if len(opts) > 1:
                    return True  # the player picks the card and the zone
                take_chosen(ctx, s, src, v, *opts[0])
                res["left"] -= 1
        elif k == "extra":
            key = "xplay" if v.limit == "play" else "xact"
            st["t"][key] += v.n if s == st["cur"] else 0
        elif k == "force_discard":
            force_discard(ctx, s, v, move)
        elif k in ("discard_self", "remove_self"):
            p = st["p"][s]
            if iid in p["auslage"]:
                move(ctx, s, iid, "auslage", "ablage" if k == "discard_self" else "aussen")
                ctx.ev(type=k.split("_")[0], seat=s, cards=[st["ci"][iid]])
        # "prevent" is handled when the reaction's resolution ends
        refill_all(ctx)
    return False


def take_chosen(ctx, s, src_iid, verb, no, zone=None):
    st = ctx.st
    found = R.find_chosen(st, s, verb, no, exclude=(src_iid,), zone=zone)
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
        st["p"][s]["deck"] = shuffled_ids(ctx, st["p"][s]["deck"])  # a searched Nachziehstapel is shuffled
        ctx.ev(type="shuffle", seat=s)


# -- resolving one rule: pay (step by step), choose, apply ---------------------------------

def start_rule(ctx, s, iid, ai, kind, less=None):
    """``less``: [card number, rule index] of a once-per-turn effect this one tops up."""
    ctx.st["res"] = {"seat": s, "card": iid, "no": ctx.st["ci"][iid], "ability": ai, "kind": kind, "picked": [],
                     "stage": "pay", "vi": -1, "left": 0}
    if less is not None:
        ctx.st["res"]["less"] = less
    step_rule(ctx)


def cost_covered(st, res) -> bool:
    a = R.rule_ability(st, res)
    cost = choice_cost(a)
    return cost is None or R.can_pay(st, res["seat"], cost, res["picked"], exclude=(res["card"],))


def step_rule(ctx):
    st = ctx.st
    res = st["res"]
    s, iid = res["seat"], res["card"]
    a = R.rule_ability(st, res)
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
        a = R.rule_card(st, res).abilities[res["ability"]]
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


def in_play_changed(old, new) -> bool:
    """Did anything trigger conditions read change from state ``old`` to ``new``: the Pfade
    and Auslagen (ranks, possessions, deliveries) or the card an instance id names?"""
    if new["ci"] is not old["ci"]:
        return True
    for p, q in zip(new["p"], old["p"]):  # a loop, not any(): this runs after every apply
        if p["pfad"] != q["pfad"] or p["auslage"] != q["auslage"]:
            return True
    return False


def settle(ctx):
    """Effects with a condition run the moment it becomes true (edge-triggered)."""
    st = ctx.st
    ci = st["ci"]
    when_of, gate = R.WHEN, R.GATE
    for _ in range(12):
        if st["phase"] == "over":
            return
        now, fire = [], []
        prev = st["trig"]
        for s, p in enumerate(st["p"]):
            r = None  # the seat's rank, looked up only when one of its cards has a trigger
            for iid in (p["pfad"][0], *p["auslage"]):
                whens = when_of.get(ci[iid])
                if whens is None:
                    continue
                if r is None:
                    r = R.rank(st, s)
                if r < gate[ci[iid]]:
                    continue
                for ai, a in whens:
                    if R.holds1(st, s, a.when) and R.holds(st, s, a.conditions):
                        key = f"{iid}:{ai}"
                        now.append(key)
                        if key not in prev:
                            fire.append((s, iid, a))
        now.sort()
        st["trig"] = now
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
        if st.get("v", 1) >= 22 and standstill(st):  # no ascent or descent can change a place: the ranks decide
            ctx.ev(type="standstill")
            finish(ctx, "standstill")
            return
    turn_start(ctx)


# -- reaction window ----------------------------------------------------------------------

def advance_window(ctx, again=False):
    """Ask the next seat clockwise; when nobody is left the Aktion resolves. Every opponent
    is asked whether or not it holds a legal reaction: who is asked, and for how long, must
    not tell the table anything about a hand. Standing orders (games/orden/orders.py) answer
    from outside, in the same step; the retired "never ask me" flag (``never``, old matches
    only) declines here at once, logged as the same line as a decline. ``again``: the seat that
    just reacted (without preventing) is asked once more, whether or not another of its
    cards can react (one reaction per card)."""
    st = ctx.st
    pend = st["pend"]
    n = st["n"]
    if again:
        st["phase"] = "react"
        return
    while pend["step"] < n - 1:
        pend["step"] += 1
        s = (pend["seat"] + pend["step"]) % n
        if st["p"][s]["never"]:
            ctx.ev(type="decline", seat=s)
            continue
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
    if ctx.actor is not None and ctx.actor != s:
        # the last answer of the window starts another seat's rule, whose course (fizzle,
        # payment, search) depends on that seat's hidden cards: the answer cannot be taken back
        ctx.reveals = True
    c = R.rule_card(st, pend)
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
    c = R.rule_card(st, pend)
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


def final_placements(ctx) -> list[dict]:
    """Places by rank reached, then the tie-break list („Zusatzwertung bei Gleichstand“),
    then „4. Los.“ from the state's RNG; one entry per seat, by seat."""
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
    return sorted(placements, key=lambda x: x["seat"])


def finish(ctx, why=None):
    """``why``: "standstill" is kept in the result (``result["end"]``), so the table can say why."""
    st = ctx.st
    st["result"] = {"placements": final_placements(ctx)}
    if why:
        st["result"]["end"] = why
    st["phase"] = "over"
    st["pend"] = None
    st["res"] = None
    ctx.ev(type="end", placements=st["result"]["placements"])
