"""Der Orden: find the games that do not end (issue 24, "simulated games still always end") and show
what the seats are doing when they pass a round limit.

    python bench/orden_stalls.py --players 3 --limit 90            # the harness's 3-player table seeds
    python bench/orden_stalls.py --players 3 --first 12 --games 1  # one game: table game 12

The games are the harness's table games (``orden_harness.table_task``: seed 3,000,001 + g, the starters
rotating over the seats, the same pilot on every seat), so a game at the harness's 300-round cap is
found here at a much lower ``--limit``: most games end by round 45. For each game over the limit it
prints every seat's rank, zone sizes and Auslage, and the actions of the last rounds, with card names.
"""
from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orden_harness as H  # noqa: E402
from games.orden.catalog import card  # noqa: E402


def name(state, iid) -> str:
    return card(state["ci"][iid]).name.de


def said(state, seat, action) -> str:
    bits = [f"seat {seat}", action["type"]]
    if "card" in action:
        bits.append(name(state, action["card"]))
    if "ability" in action:
        bits.append(f"rule {action['ability']}")
    return " ".join(bits)


def play(n, g, limit, pilot, last_rounds=2):
    """Table game ``g`` for ``n`` players (the harness's, default --seed) up to round ``limit``:
    (paths, seed, state, [(round, text)] of the last rounds)."""
    task = H.table_task(n, g, H.TABLE_SEED0 + 1, pilot)
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
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--limit", type=int, default=90, help="a game still running after this round counts as stalled")
    ap.add_argument("--first", type=int, default=0, help="the first table game")
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--stop-after", type=int, default=2, help="stop after this many stalled games")
    ap.add_argument("--pilot", default="lookahead", choices=sorted(H.BOTS))
    a = ap.parse_args(argv)
    stalled = 0
    for g in range(a.first, a.first + a.games):
        paths, seed, st, tail = play(a.players, g, a.limit, a.pilot)
        ended = st["result"] is not None
        print(f"game {g} (seed {seed}, {'/'.join(paths)}): {'ended' if ended else 'STALLED'} in round {st['round']}",
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
