"""Der Orden: how a deck climbs — for every rank the traced deck passed in paired two-player games,
which rule raised it (the last Aktion or Reaktion its seat chose before the rank changed) and the mean
round it was reached. ``bench/run.py orden compare --climb SPEC`` prints it for a comparison's deck A.

``rule`` is ``card:n`` with ``n`` the index into the card's ``rules`` (docs/games/orden.md's card table
prints them in order): ``Student:2`` is Student's third rule.
"""
from __future__ import annotations

import collections

from bench.orden import harness as H
from games.orden import rules
from games.orden.catalog import cardset
from games.orden.engine import ENGINE
from games.orden.roster import BOTS
from games.rng import Rng


def card_name(state, iid) -> str:
    return cardset().cards[state["ci"][iid]].name.de


def climb_game(task):
    """One game, the pilot on both seats; every rank change of the traced seat with the rule behind it."""
    decks, seed, me, pilot = task["decks"], task["seed"], task["seat"], task["pilot"]
    st = ENGINE.setup(2, {}, seed, [{"deck": d} for d in decks])
    rng = Rng(seed * 7919 + 17)  # the harness's pilot stream: the same games as a comparison
    last, ups = "-", []
    while st["result"] is None and st["round"] <= H.CAP_ROUNDS:
        seat = ENGINE.to_move(st)[0]
        action = BOTS[pilot](st, seat, rng)
        if seat == me and action.get("type") in ("activate", "react"):
            last = f"{card_name(st, action['card'])}:{action.get('ability')}"
        before, top = rules.rank(st, me), card_name(st, st["p"][me]["pfad"][0])
        st = ENGINE.apply(st, seat, action).state
        if rules.rank(st, me) != before:
            ups.append({"from": top, "rule": last, "round": st["round"], "up": rules.rank(st, me) > before})
    winner = None
    if st["result"] is not None:
        winner = next(x["seat"] for x in st["result"]["placements"] if x["place"] == 1)
    return {"seed": seed, "seat": me, "won": None if winner is None else winner == me, "ups": ups}


def report(results) -> list[str]:
    ended = [r for r in results if r["won"] is not None]
    out = [f"wins {sum(r['won'] for r in ended)} of {len(ended)} ended games ({len(results)} played)"]
    by_rank, rounds = collections.defaultdict(collections.Counter), collections.defaultdict(list)
    order = []
    for r in results:
        for u in r["ups"]:
            if u["from"] not in order:
                order.append(u["from"])
            by_rank[u["from"]][u["rule"] + ("" if u["up"] else " (down)")] += 1
            rounds[u["from"]].append(u["round"])
    for rank in order:
        n = len(rounds[rank])
        rules_ = ", ".join(f"{k} {v}" for k, v in by_rank[rank].most_common())
        out.append(f"{rank:16s} left in {n:4d} games, mean round {sum(rounds[rank]) / n:5.1f}: {rules_}")
    return out
