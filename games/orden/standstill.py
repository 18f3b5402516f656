"""Stillstand: the game ends when no ascent and no descent can change a place any more (data version 22 on).

The seed ends a game only when a RANG X comes on top (or, as an option, after a fixed number of
rounds). Cards leave the game for good (Gnade, the Großmeister's prevention, Einspruch remove what
they pay with), and S comes from no ?: two Großmeisters who have spent every S they had can never
ascend again, and their game went on until the simulation's 300-round cap (1 of 1,600
games of found decks). Such a game ends as after the seed's round counter: places by rank reached,
then the tie-break list.

The test is an upper bound, so it never ends a game that could go on: it ignores every condition
that could change (who is behind, what lies out), adds up everything a player's cards could ever
deliver at once, and counts the Außenwelt when a card could fetch from it. Pure; no Django.
"""
from __future__ import annotations

from games.orden import rules as R
from games.orden.schema import PLAIN, RANKS, WILD


def _reachable(p, ci) -> list:
    """The cards a player may still hold some day: all but the Pfad and, unless one of them fetches
    from there, the Außenwelt."""
    cards = [R.C[ci[i]] for z in ("hand", "deck", "ablage", "auslage") for i in p[z]]
    if any(v.kind == "choose" and "aussen" in v.zones for c in cards for a in c.abilities for v in a.verbs):
        cards += [R.C[ci[i]] for i in p["aussen"]]
    return cards


_CARD_UPPER: dict = {}  # card number -> _card_upper(card)


def _card_upper(c) -> tuple:
    """One card's part of _upper, from its data alone: its multipliers, per property the most it
    delivers (a ? counts for every plain one) and the most in all (S apart). Cached by card number:
    the test runs at every round's end and the cards never change."""
    got = _CARD_UPPER.get(c.no)
    if got is None:
        factors = tuple((st.prop, st.factor) for a in c.abilities for st in a.statics if st.kind == "multiply")
        opts = [dict(d.props) for d in c.liefert]
        per = {q: max(o.get(q, 0) + (o.get(WILD, 0) if q != "S" else 0) for o in opts) if opts else 0
               for q in PLAIN + ("S",)}
        total = max(sum(n for q, n in o.items() if q != "S") for o in opts) if opts else 0
        got = _CARD_UPPER[c.no] = (factors, per, total)
    return got


def _upper(cards, pfad):
    """What the cards could deliver together at most: per property (a ? counts for every plain one),
    and in all (S apart, as no ? stands for S); every multiplier any of them or the Pfad knows applied."""
    factor = {}
    for c in cards + pfad:
        for prop, f in _card_upper(c)[0]:
            factor[prop] = max(factor.get(prop, 1), f)
    most = max(factor.values(), default=1)
    per = dict.fromkeys(PLAIN + ("S",), 0)
    total = 0
    for c in cards:
        _, card_per, card_total = _card_upper(c)
        for q, n in card_per.items():
            per[q] += n
        total += card_total
    return {q: n * factor.get(q, 1) for q, n in per.items()}, total * most


def may_ascend(state, s) -> bool:
    """False only if seat ``s`` can never take its next step on the Pfad (its top rank's ascent, or a
    deck card that ascends), whatever it draws and whatever the others do."""
    p, ci = state["p"][s], state["ci"]
    cards = _reachable(p, ci)
    pfad = [R.C[ci[i]] for i in p["pfad"]]
    here = R.rank(state, s)
    rules = [a for c in [pfad[0]] + cards for a in c.abilities if a.ascends]
    if not rules:
        return False
    per, total = _upper(cards, pfad)
    for a in rules:
        # a rule for lower ranks only (Das Versprechen: below RANG I) cannot take the player past its rank
        if any(cond.kind == "rank_below" and RANKS[cond.rank] <= here for cond in a.conditions):
            continue
        need = R.props_needed(a)
        if per["S"] >= need.get("S", 0) and all(per[q] >= need.get(q, 0) for q in PLAIN) \
                and total >= sum(n for q, n in need.items() if q != "S"):
            return True
    return False


def _can_descend(state, o) -> bool:
    """Seat ``o`` has ascended at least once (effects.descend: nothing to descend to before)."""
    pf = state["p"][o]["pfad"]
    ci = state["ci"]
    return R.C[ci[pf[-1]]].rank_value < R.C[ci[pf[0]]].rank_value


def may_descend(state, s) -> bool:
    """Seat ``s`` may still make a player descend (Verleumdung: „Jeder Mitspieler mit höherem Rang als
    Du steigt ab“), which changes a place: a card it may still hold, or its Pfad's top, with a
    descending rule whose rank gate it holds (no ascents: its rank can only fall) and a target that
    can descend. Conditions that may change and the costs are ignored (an upper bound, as above)."""
    p, ci = state["p"][s], state["ci"]
    here = R.rank(state, s)
    for c in [R.C[ci[p["pfad"][0]]]] + _reachable(p, ci):
        if not R.gate_ok(c, here):
            continue
        for a in c.abilities:
            for v in a.verbs:
                if v.kind != "descend":
                    continue
                if v.who == "you":
                    targets = [s]
                else:
                    targets = [o for o in range(state["n"]) if o != s
                               and (v.who != "higher_opponents" or R.rank(state, o) > here)]
                if any(_can_descend(state, o) for o in targets):
                    return True
    return False


def standstill(state) -> bool:
    """No ascent and no descent can change any place any more: nobody can ever ascend again (the
    game cannot reach RANG X), and nobody can still make a player descend (a descent could open an
    ascent again and changes the places by itself)."""
    seats = range(state["n"])
    return not any(may_ascend(state, s) for s in seats) and not any(may_descend(state, s) for s in seats)
