"""Every legal action, exactly as posted. ``apply`` validates against these same lists
(filtered to the posted action's type and card), so the rules are written once.

Costs that need a choice are paid step by step after the reaction window ("pay" phase: one
card per action until the cost is covered); a ``wählen`` is a "choose" phase (one card
number per action). So every list stays small and linear in the number of cards."""
from __future__ import annotations

from dataclasses import replace

from games.orden import payment as P
from games.orden import rules as R


def canon(action) -> dict:
    return {k: (sorted(v) if isinstance(v, list) else v) for k, v in action.items()}


def blocked_key(card, ai) -> str:
    """A prevented Aktion „darf in diesem Zug von dieser Karte (oder anderen gleichen Namens)
    nicht nochmal ausgeführt werden“: the key names the card's name and the rule itself (its
    first equal rule on the card), so no copy of that rule can retry it this turn."""
    a = card.abilities[ai]
    return f"{card.name.de}|{next(i for i, b in enumerate(card.abilities) if b == a)}"


R.BLOCKED_KEY.update({(no, ai): blocked_key(c, ai) for no, c in R.C.items() for ai in range(len(c.abilities))})


def choice_cost(ability):
    for c in ability.costs:
        if c.what != "self":
            return c
    return None


def startable(state, s, iid, ability, zone) -> bool:
    """Conditions hold and every cost could be paid (a rank card cannot discard itself)."""
    if not R.holds(state, s, ability.conditions):
        return False
    for c in ability.costs:
        if c.what == "self":
            if zone not in ("auslage", "hand"):
                return False
        elif not R.payable(state, s, c, exclude=(iid,)):
            return False
    return True


def activations(state, s, only_card=None, only_ability=None) -> list:
    t = state["t"]
    out = []
    acts_left = None  # the AKTIONEN limit: computed when an Aktion is first looked at
    pfad_top = state["p"][s]["pfad"][0]
    active = R.active(state, s)
    # Checking one posted Aktion: the other cards' once-per-turn effects cannot change the
    # answer (their competition below strikes effects only), so they are not evaluated.
    posted_aktion = type(only_ability) is int and any(
        iid == only_card and 0 <= only_ability < len(c.abilities) and c.abilities[only_ability].kind == "aktion"
        for iid, c in active)
    rivals = None  # checking one card's rules: only the effects that could beat one of them matter
    if only_card is not None and not posted_aktion:
        rivals = set()
        for iid, c in active:
            if iid == only_card:
                for a in c.abilities:
                    rivals |= _DOMINATORS.get(id(a), _NONE)
        if not any(iid == only_card for iid, _c in active):
            return []  # nothing of that card can be listed
    once = []  # startable once-per-turn effects of every card (they compete with each other)
    for iid, c in active:
        mine = only_card is None or iid == only_card
        if not mine and (posted_aktion or not R.ONCE.get(c.no)):
            continue
        zone = "pfad" if iid == pfad_top else "auslage"
        for ai, a in enumerate(c.abilities):
            if posted_aktion and ai != only_ability:
                continue
            if not mine and rivals is not None and id(a) not in rivals:
                continue  # it dominates none of the checked card's effects: it cannot strike one
            if a.kind == "aktion":
                if not mine or R.BLOCKED_KEY[(c.no, ai)] in t["blocked"]:
                    continue
                if acts_left is None:
                    acts_left = t["acts"] < R.limit(state, s, "actions")
                if not acts_left:
                    continue
            elif not (a.kind == "effekt" and a.once_per_turn):
                continue
            elif a.group in t["once"]:
                # used this turn: only a plainly better effect is offered, as a top-up
                if tops_up(t, a) and R.holds(state, s, a.conditions):
                    act = {"type": "activate", "card": iid, "ability": ai}
                    once.append((act, a))
                    if mine:
                        out.append(act)
                continue
            if startable(state, s, iid, a, zone):
                act = {"type": "activate", "card": iid, "ability": ai}
                if a.kind == "effekt":
                    once.append((act, a))
                if mine:
                    out.append(act)
    if len(once) > 1:  # conflicting once-per-turn effects: only the owner's best may be used
        worse = [act for act, a in once if any(dominates(b, a) for _, b in once)]
        out = [act for act in out if act not in worse]
    return out


_NONE = frozenset()
# id of a once-per-turn effect of the card set -> ids of the effects that dominate it (a static
# relation of two rules; the card set lives as long as the process, so ids stay theirs)
_DOMINATORS = {}


def _index_dominators():
    once = [a for c in R.C.values() for a in c.abilities if a.kind == "effekt" and a.once_per_turn]
    for a in once:
        ds = frozenset(id(b) for b in once if dominates(b, a))
        if ds:
            _DOMINATORS[id(a)] = ds


def used_once(t, group):
    """[card number, rule index] of the strongest once-per-turn effect of ``group`` used this
    turn (the last one: a later use tops up the earlier), None if not known (a turn begun
    before uses were recorded)."""
    for no, ai in reversed(t.get("oncefx", ())):
        if R.C[no].abilities[ai].group == group:
            return [no, ai]
    return None


def tops_up(t, a) -> bool:
    """„gilt diejenige zum Vorteil des Besitzers“: a weaker once-per-turn effect used first
    never blocks a better one; the better one adds what the weaker did not (draw 1, then a
    draw 2 draws 1 more: 2 in all, never 3)."""
    used = used_once(t, a.group)
    return used is not None and dominates(a, R.C[used[0]].abilities[used[1]], now=True)


def _same_but_n(vb, va) -> bool:
    try:
        return replace(vb, n=va.n) == va
    except (TypeError, ValueError, AttributeError):  # a verb without a count
        return vb == va


def dominates(b, a, now=False) -> bool:
    """Effect ``b`` is plainly better for its owner than ``a`` of the same once-per-turn group:
    the same verbs, each at least as strong, one stronger, at no other cost. („gilt diejenige zum
    Vorteil des Besitzers“: draw 3 beats draw 2.) Effects that differ otherwise stay the owner's
    choice. ``now``: ``b``'s conditions hold at this moment, so they do not count against it."""
    if b is a or b.group != a.group or len(b.verbs) != len(a.verbs):
        return False
    if b.costs and b.costs != a.costs or (not now and b.conditions and b.conditions != a.conditions):
        return False
    stronger = False
    for vb, va in zip(b.verbs, a.verbs):
        if vb.kind != va.kind or not _same_but_n(vb, va):
            return False
        if vb.n < va.n:
            return False
        stronger = stronger or vb.n > va.n
    return stronger


def reactions(state, s, only_card=None) -> list:
    pend = state["pend"]
    pa = R.rule_card(state, pend).abilities[pend["ability"]]
    p = state["p"][s]
    r = R.rank(state, s)
    cands = [(p["pfad"][0], "pfad")] + [(i, "auslage") for i in p["auslage"]] + [(i, "hand") for i in p["hand"]]
    out = []
    for iid, zone in cands:
        if (only_card is not None and iid != only_card) or iid in pend["used"]:  # one reaction per card
            continue
        c = R.card(state, iid)
        if not R.gate_ok(c, r):
            continue
        for ai, a in enumerate(c.abilities):
            if a.kind == "reaktion" and R.reaction_filter_ok(a, pa) and startable(state, s, iid, a, zone):
                out.append({"type": "react", "card": iid, "ability": ai})
    return out


def pay_options(state, s, only_card=None) -> list:
    """One helpful card per action; first, while nothing narrows the listing to one card, the
    cheapest covering set at once (``{"type": "pay", "cards": [...]}``, payment.cheapest), so a
    payment takes one click and the single cards stay there to choose otherwise."""
    res = state["res"]
    cost = choice_cost(R.rule_card(state, res).abilities[res["ability"]])
    skip = set(res["picked"]) | {res["card"]}
    singles = [{"type": "pay", "card": i} for i, _ in R.candidates(state, s, cost, only=only_card) if i not in skip]
    if only_card is not None or len(singles) < 2:
        return singles
    best, _ = P.cheapest(state, s, cost, list(res["picked"]), [a["card"] for a in singles], P.LIST_SEARCH, greedy=True)
    if best is None:
        return singles
    if len(best) == 1:  # one card covers it: that card's own action comes first
        return sorted(singles, key=lambda a: a["card"] != best[0])
    return [{"type": "pay", "cards": sorted(best)}] + singles


def choose_options(state, s) -> list:
    res = state["res"]
    verb = R.rule_card(state, res).abilities[res["ability"]].verbs[res["vi"]]
    opts = R.choice_options(state, s, verb, exclude=(R.rule_source(state, res),))
    return [{"type": "choose", "card": no, "zone": z} for no, z in opts]


def main_actions(state, s, only=None) -> list:
    typ = only.get("type") if only else None
    card = only.get("card") if only else None
    p = state["p"][s]
    out = []
    if typ in (None, "play") and state["t"]["plays"] < R.limit(state, s, "play"):
        out += [{"type": "play", "card": i} for i in p["hand"]
                if (card is None or i == card) and not R.banned(state, s, i)]
    if typ in (None, "activate"):
        out += activations(state, s, card, only.get("ability") if only else None)
    if typ in (None, "end_turn"):
        out.append({"type": "end_turn"})
    return out


def react_actions(state, s, only=None) -> list:
    typ = only.get("type") if only else None
    out = []
    if typ in (None, "react"):
        out += reactions(state, s, only.get("card") if only else None)
    if typ in (None, "decline"):
        out.append({"type": "decline"})
    return out


def legacy_ok(state, s, action) -> bool:
    """The retired "never ask me" actions (folded into the ``reactions`` order, games/orden/
    orders.py): never offered any more, still accepted where they were legal, so matches whose
    log holds them replay."""
    if action.get("type") == "never_ask":
        return state["phase"] == "main" and s == state["cur"] and isinstance(action.get("value"), bool) \
            and set(action) == {"type", "value"}
    if action.get("type") == "decline" and action.get("never_ask") is True:
        return state["phase"] == "react" and state["pend"]["asked"] == s and set(action) == {"type", "never_ask"}
    return False


def legal(state, s, only=None) -> list:
    # R.frozen_state, inlined (this runs on every apply): statics cached while listing
    outer = R._MEMO
    if outer is None:
        R._MEMO = {}
    try:
        return _legal(state, s, only)
    finally:
        R._MEMO = outer


def _legal(state, s, only=None) -> list:
    phase = state["phase"]
    if phase == "main" and s == state["cur"]:
        return main_actions(state, s, only)
    if phase == "react" and state["pend"]["asked"] == s:
        return react_actions(state, s, only)
    if phase == "pay" and state["res"]["seat"] == s:
        return pay_options(state, s, only.get("card") if only else None)
    if phase == "choose" and state["res"]["seat"] == s:
        return choose_options(state, s)
    if phase == "discard" and s == state["cur"]:
        return [{"type": "discard", "card": i} for i in state["p"][s]["hand"]
                if only is None or only.get("card") in (None, i)]
    return []


def has_reaction(state, s) -> bool:
    return bool(reactions(state, s))


_index_dominators()
