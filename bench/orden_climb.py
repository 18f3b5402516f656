"""Der Orden: how a deck climbs (issue 24) — paired two-player games like ``orden_quick.py``, and for every
rank the deck passed: which rule raised it (the last Aktion or Reaktion its seat chose before the rank
changed) and the mean round it was reached.

    python bench/orden_climb.py --seed 1000001 --seeds 40 "buch:-VI+,-Magister Gregor" starter:hammer
    python bench/orden_climb.py starter:buch starter:hammer --json /tmp/climb.json

A deck is ``starter:PATH``, ``PATH:EDITS`` (``orden_harness.edited``: ``-VI+``, ``-NAME``, ``+NAME``) or
``known:LABEL[:EDITS]`` (a named find, ``orden_harness.known_edited``: also ``OLD=NEW`` for a rank card).
``rule`` is ``card:n`` with ``n`` the index into the card's ``rules`` (docs/games/orden.md's card table
prints them in order): ``Student:2`` is Student's third rule. Written for the question "the find skips
VI+ and its MENTORs: which ways up do its games take instead?" (stop 39).
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orden_harness as H  # noqa: E402
from games.orden import rules  # noqa: E402
from games.orden.roster import BOTS  # noqa: E402
from games.orden.catalog import cardset  # noqa: E402
from games.orden.engine import ENGINE  # noqa: E402
from games.rng import Rng  # noqa: E402


def card_name(state, iid) -> str:
    return cardset().cards[state["ci"][iid]].name.de


def climb_game(task):
    """One game, the pilot on both seats; every rank change of the traced seat with the rule behind it."""
    decks, seed, me, pilot = task["decks"], task["seed"], task["seat"], task["pilot"]
    st = ENGINE.setup(2, {}, seed, [{"deck": d} for d in decks])
    rng = Rng(seed * 7919 + 17)  # the harness's pilot stream: the same games as orden_quick
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


def deck_of(spec):
    if spec.startswith("starter:"):
        return spec
    if spec.startswith("known:"):  # a named find, optionally edited: known:LABEL[:EDITS] (orden_harness.known_edited)
        label, _, edits = spec[len("known:"):].partition(":")
        return H.known_edited(label, edits)
    path, edits = spec.split(":", 1)
    return H.edited(path, edits)


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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("deck", help="the deck traced")
    ap.add_argument("opponent")
    ap.add_argument("--seed", type=int, default=1000001)
    ap.add_argument("--seeds", type=int, default=40, help="seeds (two games each, seats swapped)")
    ap.add_argument("--pilot", default="lookahead", choices=sorted(BOTS))
    ap.add_argument("--json", help="write every game's rank changes here")
    a = ap.parse_args(argv)
    deck, opp = deck_of(a.deck), deck_of(a.opponent)
    tasks = []
    for seed in range(a.seed, a.seed + a.seeds):
        tasks.append({"decks": [deck, opp], "seed": seed, "seat": 0, "pilot": a.pilot})
        tasks.append({"decks": [opp, deck], "seed": seed, "seat": 1, "pilot": a.pilot})
    import multiprocessing as mp
    with mp.get_context("fork").Pool(2) as pool:
        results = pool.map(climb_game, tasks, chunksize=1)
    print(f"data {H.data_version()}, {a.deck} against {a.opponent}, seeds {a.seed}..{a.seed + a.seeds - 1}")
    print("\n".join(report(results)))
    if a.json:
        Path(a.json).write_text(json.dumps(results))


if __name__ == "__main__":
    main()
