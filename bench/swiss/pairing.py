"""Time to pair one Swiss round mid-tournament (Eiserner Thron scoring, realistic score
groups and history, odd field so the bye and standings are included).

    bench/run.py pairing            # 1,000 and 10,000 players, median of 5
    bench/run.py pairing --smoke    # quick check (200 players, 1 run)

Goals: 1,000 players <= 1 s, 10,000 players <= 10 s.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from games.rng import Rng  # noqa: E402
from tournaments.logic import pair_swiss, structure_for  # noqa: E402
from tournaments.logic.simulate import play  # noqa: E402


def history(n: int, rounds: int, seed: int):
    """``rounds`` played rounds of an n-player Swiss with ~2% drops per round."""
    rng = Rng(seed)
    players = list(range(1, n + 1))
    dropped: set[int] = set()
    played = []
    for _ in range(rounds):
        for p in players:
            if p not in dropped and rng.random() < 0.02:
                dropped.add(p)
        pairing = pair_swiss(players, played, dropped=dropped, seed=seed)
        played.append(play(pairing, rng))
    return players, played, dropped


def bench(n: int, runs: int, seed: int = 2024) -> dict:
    total = structure_for("fortgeschritten", n).rounds
    done = total - 2  # pair the second-to-last round: many score groups, long history
    players, played, dropped = history(n, done, seed)
    times = []
    for k in range(runs):
        t0 = time.perf_counter()
        p = pair_swiss(players, played, dropped=dropped, seed=seed + k)
        times.append(time.perf_counter() - t0)
    active = n - len(dropped)
    return {"players": n, "active": active, "round": done + 1, "tables": len(p.tables),
            "byes": len(p.byes), "rematches": p.rematches, "median_s": statistics.median(times),
            "min_s": min(times), "max_s": max(times), "runs": runs}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smoke", action="store_true", help="one quick run on 200 players")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000])
    args = ap.parse_args()
    goals = {1000: 1.0, 10000: 10.0}
    sizes, runs = ([200], 1) if args.smoke else (args.sizes, args.runs)
    ok = True
    for n in sizes:
        r = bench(n, runs)
        goal = goals.get(n)
        flag = "" if goal is None else ("  OK" if r["median_s"] <= goal else "  OVER GOAL")
        ok &= goal is None or r["median_s"] <= goal
        print(f"{r['players']:>6} players ({r['active']} active), round {r['round']}: "
              f"{r['tables']} tables, {r['byes']} bye, {r['rematches']} rematches; "
              f"median {r['median_s']:.3f} s (min {r['min_s']:.3f}, max {r['max_s']:.3f}, "
              f"{r['runs']} runs){flag}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
