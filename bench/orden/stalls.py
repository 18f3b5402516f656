"""Der Orden: find the games that do not end (the goal "simulated games always end") and show
what the seats are doing when they pass a round limit.

    bench/run.py orden stalls --players 3 --limit 90            # the report's 3-player table seeds
    bench/run.py orden stalls --players 3 --first 12 --games 1  # one game: table game 12
    bench/run.py orden stalls --known thin-grace:buch --first 6000001 --games 100  # a named find's paired games

The games are the report's table games (``harness.table_task``: seed 3,000,001 + g, the starters
rotating over the seats, the same pilot on every seat), so a game at the harness's 300-round cap is
found here at a much lower ``--limit``: most games end by round 45. With ``--known LABEL:OPP`` the games are
the paired games of a named find against a starter (``orden compare``'s ``known`` spec, the report's known part):
``--first`` is then the first seed, and each seed is played twice, the find at seat 0 and at seat 1. For each game over the limit it
prints every seat's rank, zone sizes and Auslage, and the actions of the last rounds, with card names.
"""
from __future__ import annotations

import argparse
import collections

from bench.orden import harness as H
from games.orden.catalog import card


def name(state, iid) -> str:
    return card(state["ci"][iid]).name.de


def said(state, seat, action) -> str:
    bits = [f"seat {seat}", action["type"]]
    if action["type"] == "choose":  # a choice names a card by its number (legal.choose_options), not an instance
        bits.append(card(action["card"]).name.de)
    elif "card" in action:
        bits.append(name(state, action["card"]))
    if "ability" in action:
        bits.append(f"rule {action['ability']}")
    return " ".join(bits)


def tasks(a):
    """The games to look at: (label, task) in order."""
    if not a.known:
        for g in range(a.first, a.first + a.games):
            yield f"game {g}", H.table_task(a.players, g, H.TABLE_SEED0 + 1, a.pilot)
        return
    label, _, opp = a.known.partition(":")
    deck = dict(H.known()).get(f"known:{label}")
    if deck is None:
        raise SystemExit(f"no known deck {label!r} the current cards allow")
    for t in H.Runner(1, a.pilot).pair_tasks(deck, f"starter:{opp}", range(a.first, a.first + a.games)):
        seats = [label, opp] if t["a_seat"] == 0 else [opp, label]
        yield f"{label} at seat {t['a_seat']}", {**t, "paths": seats}


def play(n, g, limit, pilot, last_rounds=2):
    """Table game ``g`` for ``n`` players (the harness's, default --seed) up to round ``limit``:
    (paths, seed, state, [(round, text)] of the last rounds)."""
    return play_task(H.table_task(n, g, H.TABLE_SEED0 + 1, pilot), limit, pilot, last_rounds)


def play_task(task, limit, pilot, last_rounds=2):
    """``task`` (the harness's, with ``paths``) up to round ``limit``, as ``play``."""
    n = len(task["decks"])
    paths, seed = task["paths"], task["seed"]
    st = H.ENGINE.setup(n, {}, seed, [{"deck": d} for d in task["decks"]])
    rng = H.Rng(seed * 7919 + 17)  # as orden_harness.play_game seeds the pilots
    tail = []
    while st["result"] is None and st["round"] <= limit:
        seat = H.ENGINE.to_move(st)[0]
        action = H.BOTS[pilot](st, seat, rng)
        if st["round"] > limit - last_rounds:
            tail.append((st["round"], said(st, seat, action)))
        st = H.ENGINE.apply(st, seat, action).state
    return paths, seed, st, tail


def report(paths, st) -> list:
    lines = []
    for s, p in enumerate(st["p"]):
        shown = collections.Counter(name(st, i) for i in p["auslage"])
        lines.append(f"  seat {s} ({paths[s]}): rank {name(st, p['pfad'][0])}; hand {len(p['hand'])}, "
                     f"Nachziehstapel {len(p['deck'])}, Ablage {len(p['ablage'])}, Auslage {len(p['auslage'])}: "
                     + ", ".join(f"{k} x{v}" for k, v in sorted(shown.items())))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(prog="bench/run.py orden stalls", description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--limit", type=int, default=90, help="a game still running after this round counts as stalled")
    ap.add_argument("--first", type=int, default=0, help="the first table game (with --known: the first seed)")
    ap.add_argument("--known", default="", help="LABEL:OPP: a named find's paired games against OPP's starter")
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--stop-after", type=int, default=2, help="stop after this many stalled games")
    ap.add_argument("--pilot", default="lookahead", choices=sorted(H.BOTS))
    a = ap.parse_args(argv)
    stalled = 0
    for label, task in tasks(a):
        paths, seed, st, tail = play_task(task, a.limit, a.pilot)
        ended = st["result"] is not None
        print(f"{label} (seed {seed}, {'/'.join(paths)}): {'ended' if ended else 'STALLED'} in round {st['round']}",
              flush=True)
        if ended:
            continue
        stalled += 1
        print("\n".join(report(paths, st)))
        for rnd, text in tail:
            print(f"    round {rnd}: {text}")
        if stalled >= a.stop_after:
            break
    return stalled


if __name__ == "__main__":
    main()
