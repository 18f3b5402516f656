"""Interpreter of the card language: reads the game state, never changes it.

Ranks, active cards, conditions, limits, multipliers, what cards deliver, whether cards
cover a property requirement, which cards can help pay a cost, what a ``wählen`` can find.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from itertools import product

from games.orden.catalog import cardset
from games.orden.schema import FLOORS, PLAIN, RANKS

C = cardset().cards
CS_BY_NAME = cardset().by_name
BASE_LIMITS = {"play": 1, "actions": 1, "hand": 7}
GATE = {no: (RANKS[c.rank_gate] if c.rank_gate else -1.0) for no, c in C.items()}
# per card number, precomputed once: which kinds of rules it has (the engine's hot loops
# look only at cards that can matter) and its unconditional delivery options
STATIC = {no: tuple(a for a in c.abilities if a.statics) for no, c in C.items()}
STATIC = {no: v for no, v in STATIC.items() if v}
ONCE = {no: True for no, c in C.items() if any(a.kind == "effekt" and a.once_per_turn for a in c.abilities)}
MULTIPLY = {no: tuple(a for a in v if any(st.kind == "multiply" for st in a.statics)) for no, v in STATIC.items()}
MULTIPLY = {no: v for no, v in MULTIPLY.items() if v}
# statics that act on the opponents (opp_limit, ban): only these cards are looked at across seats
AGAINST = {no: tuple(a for a in v if any(st.kind in ("opp_limit", "ban") for st in a.statics))
           for no, v in STATIC.items()}
AGAINST = {no: v for no, v in AGAINST.items() if v}
# the same, each rule with just those statics
AGAINST_RULES = {no: tuple((a, tuple(st for st in a.statics if st.kind in ("opp_limit", "ban"))) for a in v)
                 for no, v in AGAINST.items()}
BLOCKED_KEY = {}  # (card number, rule index) -> legal.blocked_key, filled by legal on import
WHEN = {no: tuple((ai, a) for ai, a in enumerate(c.abilities) if a.when is not None) for no, c in C.items()}
WHEN = {no: v for no, v in WHEN.items() if v}
FIXED = {no: tuple(dict(d.props) for d in c.liefert) for no, c in C.items()
         if not any(d.conditions for d in c.liefert)}
LETTERS = {no: frozenset(p for o in opts for p in o) for no, opts in FIXED.items()}
RV = {no: c.rank_value for no, c in C.items()}  # rank_value is a property: a call each time
_XKEY = {"play": "xplay", "actions": "xact"}


def card(state, iid):
    return C[state["ci"][iid]]


def rule_card(state, holder):
    """The card of a pending or resolving rule (``pend``/``res``): by its number, because a
    card paid as a cost may be reshuffled, and instance ids are dealt anew then."""
    no = holder.get("no")
    return C[no] if no is not None else C[state["ci"][holder["card"]]]


def rule_ability(state, holder):
    """The rule a pending or resolving rule runs: its card's rule, or for a once-per-turn
    effect that tops up a weaker one used this turn (``less``) what is left of it."""
    a = rule_card(state, holder).abilities[holder["ability"]]
    less = holder.get("less")
    return a if less is None else topped_up(a, C[less[0]].abilities[less[1]])


@lru_cache(maxsize=None)
def topped_up(better, used):
    """„gilt diejenige zum Vorteil des Besitzers … 3 Karten ziehen (nicht 2, nicht 5)“: after
    ``used`` the better effect adds only the difference (each verb's count less the used one's;
    a verb left at 0 does nothing) and costs nothing more (it costs nothing or what was paid)."""
    verbs = tuple(replace(vb, n=vb.n - va.n) for vb, va in zip(better.verbs, used.verbs))
    return replace(better, costs=(), verbs=verbs)


def rule_source(state, holder) -> int:
    """The rule's own instance id while it still names that card, else -1."""
    no = holder.get("no")
    return holder["card"] if no is None or state["ci"][holder["card"]] == no else -1


def rank(state, s) -> float:
    return RV[state["ci"][state["p"][s]["pfad"][0]]]


def gate_ok(c, r) -> bool:
    return r >= GATE[c.no]


def matches(c, sel) -> bool:
    if sel.name is not None and c.name.de != sel.name:
        return False
    if sel.type is not None and c.type != sel.type:
        return False
    if sel.wappen is not None and c.wappen != sel.wappen:
        return False
    if sel.delivers is not None and not c.can_deliver(sel.delivers):
        return False
    return True


# the card numbers each selector of the card set matches, by the selector's id (the selector
# kept beside it, so a reused id of another object never answers): hot loops test membership
_SELECTED = {}


def _index_selectors():
    def add(sel):
        if sel is not None and id(sel) not in _SELECTED:
            nos = frozenset(no for no, c in C.items() if matches(c, sel))
            _SELECTED[id(sel)] = (sel, nos, frozenset(no for no in nos if C[no].kind == "deck"))

    for c in C.values():
        for a in c.abilities:
            for x in (*a.conditions, *a.costs, *a.verbs, *a.statics, *((a.when,) if a.when else ())):
                add(getattr(x, "select", None))
        for d in c.liefert:
            for x in d.conditions:
                add(x.select)


_index_selectors()


def selected(sel):
    """The frozenset of card numbers ``sel`` matches, None for a selector not of the card set."""
    got = _SELECTED.get(id(sel))
    return got[1] if got is not None and got[0] is sel else None


def selected_deck(sel):
    """``selected`` of the Nachziehstapel cards (kind "deck") only."""
    got = _SELECTED.get(id(sel))
    return got[2] if got is not None and got[0] is sel else None


def active(state, s):
    """(iid, card) whose rules work: top of the Pfad and the Auslage, rank gates met."""
    p = state["p"][s]
    ci = state["ci"]
    r = rank(state, s)
    out = [(p["pfad"][0], C[ci[p["pfad"][0]]])]
    for iid in p["auslage"]:
        no = ci[iid]
        if r >= GATE[no]:
            out.append((iid, C[no]))
    return out


def holds(state, s, conds, _depth=0) -> bool:
    for c in conds:  # a loop, not all(generator): this is the hottest call of the engine
        if not holds1(state, s, c, _depth):
            return False
    return True


def holds1(state, s, cond, _depth=0) -> bool:
    k = cond.kind
    if k == "rank_at_least":
        return rank(state, s) >= RANKS[cond.rank]
    if k == "rank_below":
        return rank(state, s) < RANKS[cond.rank]
    p = state["p"][s]
    ci = state["ci"]
    if k == "rank_in_pfad":
        want = cond.rank
        for i in p["pfad"]:
            if C[ci[i]].rank == want:
                return True
        return False
    if k == "possess":
        nos = selected(cond.select)
        if nos is None:
            return sum(matches(C[ci[i]], cond.select) for i in p["auslage"]) >= cond.count
        n = 0
        for i in p["auslage"]:
            if ci[i] in nos:
                n += 1
        return n >= cond.count
    if k == "lacks":
        nos = selected(cond.select)
        if nos is None:
            return not any(matches(C[ci[i]], cond.select) for i in p["auslage"])
        for i in p["auslage"]:
            if ci[i] in nos:
                return False
        return True
    if k == "behind":
        r = rank(state, s)
        pl = state["p"]
        for o in range(state["n"]):
            if o != s and RV[ci[pl[o]["pfad"][0]]] > r:
                return True
        return False
    if k in ("yet_to_move", "next_to_move"):
        # how many turns after the current seat seat s moves in this round (start player first): yet_to_move any,
        # next_to_move exactly one (after the round's last seat nobody is next)
        n, st = state["n"], state["start"]
        ahead = (s - st) % n - (state["cur"] - st) % n
        return ahead > 0 if k == "yet_to_move" else ahead == 1
    if k == "stronger":  # a contest: the Auslagen compared, multipliers counted
        if _depth > 2:
            return False
        mine = prop_total(state, s, cond.prop, _depth + 1)
        for o in range(state["n"]):
            if o != s and not prop_total(state, o, cond.prop, _depth + 1) < mine:
                return False
        return True
    if k == "possess_props":
        if _depth > 2:  # a delivery condition asking for properties: no recursion loops
            return False
        m = multipliers(state, s, _depth + 1)
        opts = [deliveries(state, s, C[ci[i]], "auslage", m, _depth + 1) for i in p["auslage"]]
        return covers([o for o in opts if o], dict(cond.props))
    raise ValueError(k)


def props_needed(ability) -> dict:
    """The properties a rule asks for at least: what its costs pay, and what its conditions ask to own
    beforehand (the larger of the two per property; the same cards may serve both)."""
    need = {}
    for cost in ability.costs:
        for q, n in cost.props:
            need[q] = need.get(q, 0) + n
    for cond in ability.conditions:
        for q, n in cond.props:
            need[q] = max(need.get(q, 0), n)
    return need


def prop_total(state, s, prop, _depth=0) -> int:
    """How much of ``prop`` the Auslage of ``s`` delivers (best option per card, multipliers)."""
    mult = multipliers(state, s, _depth)
    total = 0
    for iid in state["p"][s]["auslage"]:
        opts = deliveries(state, s, C[state["ci"][iid]], "auslage", mult, _depth)
        total += max((o.get(prop, 0) for o in opts), default=0)
    return total


_MEMO = None  # while legal() enumerates one unchanging state: statics per seat


class frozen_state:
    """Context manager: the state does not change inside, so per-seat statics are cached."""

    def __enter__(self):
        global _MEMO
        self.outer = _MEMO
        if _MEMO is None:
            _MEMO = {}

    def __exit__(self, *exc):
        global _MEMO
        _MEMO = self.outer


def _statics(state, s, _depth=0, kind=None):
    """The static effects working for ``s`` (a list: callers must not change it); ``kind``
    "multiply" looks only at cards that have a multiplier (so conditions of other statics are
    not evaluated for it)."""
    if _MEMO is not None and _depth == 0:
        key = s if kind is None else (kind, s)
        got = _MEMO.get(key)
        if got is None:
            got = _MEMO[key] = _statics_now(state, s, 0, kind)
        return got
    return _statics_now(state, s, _depth, kind)


def _statics_now(state, s, _depth=0, kind=None) -> list:
    p = state["p"][s]
    ci = state["ci"]
    r = None
    index = STATIC if kind is None else MULTIPLY
    out = []
    for iid in (p["pfad"][0], *p["auslage"]):
        no = ci[iid]
        abilities = index.get(no)
        if abilities is None:
            continue
        gate = GATE[no]
        if gate >= 0:
            r = rank(state, s) if r is None else r
            if r < gate:
                continue
        for a in abilities:
            if not a.conditions or holds(state, s, a.conditions, _depth):
                out += a.statics
    return out


def multipliers(state, s, _depth=0) -> dict:
    """Owner's advantage: of several multipliers for one property the highest holds."""
    m = {}
    for st in _statics(state, s, _depth, "multiply"):
        if st.kind == "multiply" and st.factor > m.get(st.prop, 1):
            m[st.prop] = st.factor
    return m


def _limit_rules(kind) -> dict:
    """Per limit: card number -> ((rule, the sum of its ``kind`` statics for that limit), ...)."""
    out = {w: {} for w in BASE_LIMITS}
    for no, c in C.items():
        for a in c.abilities:
            for w in BASE_LIMITS:
                plus = [st.plus for st in a.statics if st.kind == kind and st.limit == w]
                if plus:
                    out[w].setdefault(no, []).append((a, sum(plus)))
    return {w: {no: tuple(v) for no, v in d.items()} for w, d in out.items()}


OWN_LIMIT = _limit_rules("limit")  # the owner's limit statics
OPP_LIMIT = _limit_rules("opp_limit")  # the opponents' (opp_limit)


def limit(state, s, which) -> int:
    """AUSSPIELEN+n, AKTIONEN+n, HANDLIMIT+n add up (also negative ones and the opponents'
    opp_limit, down to a floor); one-turn extras for the current turn. Only the cards with
    such a static are looked at (the statics of ``_statics``/``against``, summed)."""
    n = BASE_LIMITS[which]
    own, opp = OWN_LIMIT[which], OPP_LIMIT[which]
    ci = state["ci"]
    for o, p in enumerate(state["p"]):
        rules_of = own if o == s else opp
        if not rules_of:
            continue
        r = None
        for iid in (p["pfad"][0], *p["auslage"]):
            no = ci[iid]
            rules = rules_of.get(no)
            if rules is None:
                continue
            gate = GATE[no]
            if gate >= 0:
                if r is None:
                    r = RV[ci[p["pfad"][0]]]
                if r < gate:
                    continue
            for a, plus in rules:
                if not a.conditions or holds(state, o, a.conditions):
                    n += plus if o == s else -plus
    n = max(n, FLOORS[which])
    if s == state["cur"]:
        n += state["t"].get(_XKEY.get(which, ""), 0)
    return n


def against(state, s) -> list:
    """Statics of the other seats' active cards that act on ``s`` (opp_limit, ban)."""
    if _MEMO is not None:
        got = _MEMO.get(("against", s))
        if got is None:
            got = _MEMO[("against", s)] = _against_now(state, s)
        return got
    return _against_now(state, s)


def _against_now(state, s) -> list:
    out = []
    ci = state["ci"]
    for o, p in enumerate(state["p"]):
        if o == s:
            continue
        for iid in (p["pfad"][0], *p["auslage"]):
            no = ci[iid]
            rules = AGAINST_RULES.get(no)
            if rules is None or rank(state, o) < GATE[no]:
                continue
            for a, sts in rules:
                if not a.conditions or holds(state, o, a.conditions):
                    out += sts
    return out


def banned(state, s, iid) -> bool:
    """Does an opponent's ban forbid ``s`` to play this card?"""
    if not AGAINST:
        return False
    sts = against(state, s)
    if not sts:
        return False
    c = C[state["ci"][iid]]
    return any(st.kind == "ban" and matches(c, st.select) for st in sts)


def deliveries(state, s, c, zone, mult=None, _depth=0) -> list:
    """The delivery options (dicts) card ``c`` offers its owner now; multipliers apply to
    cards lying in the Auslage. Callers must not change the returned dicts."""
    fixed = FIXED.get(c.no)
    if fixed is not None and not (zone == "auslage" and mult):
        return fixed
    out = []
    for d in c.liefert:
        if d.conditions and not holds(state, s, d.conditions, _depth):
            continue
        props = dict(d.props)
        if zone == "auslage" and mult:
            for p, f in mult.items():
                if p in props:
                    props[p] *= f
        out.append(props)
    return out


_PLAIN_SET = frozenset(PLAIN)


def _feasible(f, w, req) -> bool:
    """``f``: plain and S amounts (keys among T K V W E S), ``w``: wildcards (?)."""
    if f.get("S", 0) < req.get("S", 0):
        return False
    deficit = 0
    need = req.get("?", 0)
    total = w
    for p, fp in f.items():
        if p != "S":
            total += fp
    for p, rp in req.items():
        if p in _PLAIN_SET:
            need += rp
            fp = f.get(p, 0)
            if rp > fp:
                deficit += rp - fp
    return deficit <= w and total >= need


def covers(opts_list, req) -> bool:
    """Do cards (each: its list of delivery options, one of which it delivers) together
    deliver at least ``req``? A ? covers any one property except S, either way round."""
    fixed = {}
    w = 0
    multi = []
    for opts in opts_list:
        if len(opts) == 1:
            for p, n in opts[0].items():
                if p == "?":
                    w += n
                else:
                    fixed[p] = fixed.get(p, 0) + n
        elif opts:
            multi.append(opts)
    if not multi:
        return _feasible(fixed, w, req)
    for combo in product(*multi):
        f = dict(fixed)
        ww = w
        for o in combo:
            for p, n in o.items():
                if p == "?":
                    ww += n
                else:
                    f[p] = f.get(p, 0) + n
        if _feasible(f, ww, req):
            return True
    return False


def _relevant(opts, req) -> bool:
    wild_wanted = "?" in req
    plain_wanted = len(req) > (1 if "S" in req else 0)
    for o in opts:
        for p in o:
            if p in req or (p == "?" and plain_wanted) or (wild_wanted and p != "S"):
                return True
    return False


def zone_cards(state, s, zone):
    p = state["p"][s]
    if zone == "hand_or_auslage":
        return [(i, "hand") for i in p["hand"]] + [(i, "auslage") for i in p["auslage"]]
    return [(i, zone) for i in p[zone]]


def candidates(state, s, cost, exclude=(), with_opts=False, only=None) -> list:
    """(iid, zone) of cards that can help pay ``cost`` (a card or property cost);
    (iid, zone, delivery options) with ``with_opts``; ``only``: just that instance id
    (checking one posted payment)."""
    ci = state["ci"]
    p = state["p"][s]
    zones = ("hand", "auslage") if cost.zone == "hand_or_auslage" else (cost.zone,)

    def ids(zone):
        return p[zone] if only is None else [i for i in p[zone] if i == only]

    out = []
    if cost.what == "cards":
        nos = selected(cost.select)
        for zone in zones:
            for iid in ids(zone):
                if iid not in exclude and (ci[iid] in nos if nos is not None else matches(C[ci[iid]], cost.select)):
                    out.append((iid, zone, None) if with_opts else (iid, zone))
        return out
    mult = None  # looked up for the first Auslage card only (hand cards are never multiplied)
    req = dict(cost.props)
    plain_wanted = len(req) > (1 if "S" in req else 0)
    wild_wanted = "?" in req
    for zone in zones:
        for iid in ids(zone):
            if iid in exclude:
                continue
            no = ci[iid]
            if zone == "auslage":
                if mult is None:
                    mult = multipliers(state, s)
                m = mult
            else:
                m = None
            letters = LETTERS.get(no)
            if letters is not None:  # fixed deliveries: decide relevance from the letters
                if not letters or not (not letters.isdisjoint(req) or ("?" in letters and plain_wanted)
                                       or (wild_wanted and letters != {"S"})):
                    continue
                opts = FIXED[no] if not m else deliveries(state, s, C[no], zone, m)
            else:
                opts = deliveries(state, s, C[no], zone, m)
                if not opts or not _relevant(opts, req):
                    continue
            out.append((iid, zone, opts) if with_opts else (iid, zone))
    return out


def can_pay(state, s, cost, chosen, exclude=()) -> bool:
    """Do the chosen cards (still in their zones) pay ``cost``?"""
    if len(set(chosen)) != len(chosen):
        return False
    p = state["p"][s]
    zones = ("hand", "auslage") if cost.zone == "hand_or_auslage" else (cost.zone,)
    where = []  # the zone of each chosen card (zone_cards, not excluded)
    for i in chosen:
        if i in exclude:
            return False
        for z in zones:
            if i in p[z]:
                where.append(z)
                break
        else:
            return False
    ci = state["ci"]
    if cost.what == "cards":
        return len(chosen) >= cost.count and all(matches(C[ci[i]], cost.select) for i in chosen)
    mult = multipliers(state, s) if "auslage" in where else None  # hand cards are never multiplied
    return covers([deliveries(state, s, C[ci[i]], z, mult) for i, z in zip(chosen, where)], dict(cost.props))


def payable(state, s, cost, exclude=()) -> bool:
    """Could the cost be paid with all the cards that can help?"""
    cands = candidates(state, s, cost, exclude, with_opts=True)
    if cost.what == "cards":
        return len(cands) >= cost.count
    return covers([o for _, _, o in cands], dict(cost.props))


def choosable(state, s, verb, exclude=()) -> list:
    """Distinct card numbers a ``wählen`` can find now in the searched zones."""
    return sorted({no for no, _zone in choice_options(state, s, verb, exclude)})


def choice_options(state, s, verb, exclude=()) -> list:
    """Distinct (card number, zone) pairs a ``wählen`` can take now: the player chooses the
    zone too (the rules let them search Nachziehstapel, Ablage, Auslage and Hand)."""
    ci = state["ci"]
    p = state["p"][s]
    out = set()
    nos = selected_deck(verb.select)
    for z in _search_zones(verb):
        for iid in p[z]:
            if iid in exclude:
                continue
            no = ci[iid]
            if nos is not None:
                if no in nos:
                    out.add((no, z))
                continue
            c = C[no]
            if c.kind == "deck" and matches(c, verb.select):
                out.add((c.no, z))
    return sorted(out)


def _search_zones(verb):
    zones = list(verb.zones)
    if verb.to == "hand" and "hand" in zones:
        zones.remove("hand")  # choosing a hand card into the hand changes nothing
    if verb.to != "hand" and "auslage" in zones:
        zones.remove("auslage")  # already in play
    return zones


def find_chosen(state, s, verb, no, exclude=(), zone=None):
    """(iid, zone) of a card numbered ``no`` in ``zone`` or else the searched zones, deck first."""
    ci = state["ci"]
    p = state["p"][s]
    zones = _search_zones(verb)
    if zone is not None:
        zones = [zone] if zone in zones else []
    for z in zones:
        for iid in p[z]:
            if iid not in exclude and ci[iid] == no:
                return iid, z
    return None


def reaction_filter_ok(ability, pending_ability) -> bool:
    return ability.on == "aktion" or (ability.on == "ascend" and pending_ability.ascends) \
        or (ability.on == "hostile" and pending_ability.hostile)


def ability(state, action):
    """The rule an ``activate`` or ``react`` action uses."""
    return card(state, action["card"]).abilities[action["ability"]]


def prevents(state, action) -> bool:
    """``action`` is a reaction whose rule prevents what it answers (the bots' and the orders' test)."""
    return action["type"] == "react" and any(v.kind == "prevent" for v in ability(state, action).verbs)
