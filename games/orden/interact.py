"""Interaction verbs of the card language: rules that reach into the opponents' zones.

``force_discard``: the targets (every opponent, those ranked above you, or the player whose
Aktion a Reaktion answers; optionally only those owning less of a property than you) each
discard ``n`` cards drawn at random from their hand, or cards of their Auslage matching a
selector (at random among them). Random picks come from the game's RNG, so they are
deterministic for a seed and reveal nothing the rules do not show (the cards land face up
in the Ablage)."""
from __future__ import annotations

from games.orden import rules as R


prop_total = R.prop_total  # the contest's measure (also the condition ``stronger``)


def targets(state, s, verb) -> list:
    n = state["n"]
    if verb.who == "actor":
        pend = state["pend"]
        actor = pend["seat"] if pend is not None else state["cur"]
        out = [actor] if actor != s else []
    else:
        r = R.rank(state, s)
        out = [o for o in ((s + k) % n for k in range(1, n))
               if verb.who == "each_opponent" or R.rank(state, o) > r]
    if verb.weaker:
        mine = prop_total(state, s, verb.weaker)
        out = [o for o in out if prop_total(state, o, verb.weaker) < mine]
    return out


def force_discard(ctx, s, verb, move):
    st = ctx.st
    for o in targets(st, s, verb):
        p = st["p"][o]
        pool = [i for i in p[verb.src] if verb.select is None or R.matches(R.card(st, i), verb.select)]
        got = []
        for _ in range(verb.n):
            if not pool:
                break
            iid = pool.pop(ctx.rng.below(len(pool)))
            move(ctx, o, iid, verb.src, "ablage")
            got.append(st["ci"][iid])
        if got:
            ctx.reveals = True
            ctx.ev(type="discard", seat=o, cards=got, forced_by=s)
