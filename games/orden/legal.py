"""Every legal action, exactly as posted. ``apply`` validates against these same lists
(filtered to the posted action's type and card), so the rules are written once.

Costs that need a choice are paid step by step after the reaction window ("pay" phase: one
card per action until the cost is covered); a ``wählen`` is a "choose" phase (one card
number per action). So every list stays small and linear in the number of cards."""
from __future__ import annotations

from games.orden import rules as R


def canon(action) -> dict:
    return {k: (sorted(v) if isinstance(v, list) else v) for k, v in action.items()}


def blocked_key(card, ai) -> str:
    return f"{card.name.de}|{ai}"


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


def activations(state, s, only_card=None) -> list:
    t = state["t"]
    out = []
    acts_left = t["acts"] < R.limit(state, s, "actions")
    pfad_top = state["p"][s]["pfad"][0]
    for iid, c in R.active(state, s):
        if only_card is not None and iid != only_card:
            continue
        zone = "pfad" if iid == pfad_top else "auslage"
        for ai, a in enumerate(c.abilities):
            if a.kind == "aktion":
                if not acts_left or blocked_key(c, ai) in t["blocked"]:
                    continue
            elif not (a.kind == "effekt" and a.once_per_turn) or a.group in t["once"]:
                continue
            if startable(state, s, iid, a, zone):
                out.append({"type": "activate", "card": iid, "ability": ai})
    return out


def reactions(state, s, only_card=None) -> list:
    pend = state["pend"]
    pa = R.card(state, pend["card"]).abilities[pend["ability"]]
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


def pay_options(state, s) -> list:
    res = state["res"]
    cost = choice_cost(R.card(state, res["card"]).abilities[res["ability"]])
    skip = set(res["picked"]) | {res["card"]}
    return [{"type": "pay", "card": i} for i, _ in R.candidates(state, s, cost) if i not in skip]


def choose_options(state, s) -> list:
    res = state["res"]
    verb = R.card(state, res["card"]).abilities[res["ability"]].verbs[res["vi"]]
    nos = R.choosable(state, s, verb, exclude=(res["card"],))
    return [{"type": "choose", "card": no} for no in nos]


def main_actions(state, s, only=None) -> list:
    typ = only.get("type") if only else None
    card = only.get("card") if only else None
    p = state["p"][s]
    out = []
    if typ in (None, "play") and state["t"]["plays"] < R.limit(state, s, "play"):
        out += [{"type": "play", "card": i} for i in p["hand"] if card is None or i == card]
    if typ in (None, "activate"):
        out += activations(state, s, card)
    if typ in (None, "end_turn"):
        out.append({"type": "end_turn"})
    if typ in (None, "never_ask"):
        out.append({"type": "never_ask", "value": not p["never"]})
    return out


def react_actions(state, s, only=None) -> list:
    typ = only.get("type") if only else None
    out = []
    if typ in (None, "react"):
        out += reactions(state, s, only.get("card") if only else None)
    if typ in (None, "decline"):
        out += [{"type": "decline"}, {"type": "decline", "never_ask": True}]
    return out


def legal(state, s, only=None) -> list:
    with R.frozen_state():
        return _legal(state, s, only)


def _legal(state, s, only=None) -> list:
    phase = state["phase"]
    if phase == "main" and s == state["cur"]:
        return main_actions(state, s, only)
    if phase == "react" and state["pend"]["asked"] == s:
        return react_actions(state, s, only)
    if phase == "pay" and state["res"]["seat"] == s:
        return pay_options(state, s)
    if phase == "choose" and state["res"]["seat"] == s:
        return choose_options(state, s)
    if phase == "discard" and s == state["cur"]:
        return [{"type": "discard", "card": i} for i in state["p"][s]["hand"]
                if only is None or only.get("card") in (None, i)]
    return []


def has_reaction(state, s) -> bool:
    return bool(reactions(state, s))
