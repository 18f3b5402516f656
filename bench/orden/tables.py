"""Der Orden: table games for N players (the harness's tables: the three starters rotating over the
seats, the lookahead pilot on every seat), one JSON line per finished game, so a long run on a busy
machine can be summarised at any point.

    bench/run.py orden tables play 6 --seed 50001 --games 120 > var/t6.jsonl
    bench/run.py orden tables sum var/t6.jsonl                 # shares, start player, rounds
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
from pathlib import Path

from bench.orden import harness as H


def _one(task):
    r = H.play_game(task)
    return {"seed": task["seed"], "paths": task["paths"], "winner": r["winner"], "start": r["start"],
            "rounds": r["rounds"], "decisions": r["decisions"], "turns": r["turns"], "engine_s": r["engine_s"]}


def play(n, seed, games, procs):
    tasks = [H.table_task(n, g, H.TABLE_SEED0 + seed, "lookahead") for g in range(games)]
    with mp.get_context("fork").Pool(max(1, min(procs, 2))) as pool:
        for row in pool.imap(_one, tasks, chunksize=1):
            print(json.dumps(row), flush=True)


def summary(path):
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    n = len(rows[0]["paths"])
    ended = [r for r in rows if r["winner"] is not None]
    wins = {p: 0 for p in H.PATHS}
    fair = {p: 0.0 for p in H.PATHS}
    for r in ended:
        wins[r["paths"][r["winner"]]] += 1
        for p in r["paths"]:
            fair[p] += 1 / n
    first = sum(r["winner"] == r["start"] for r in ended)
    rounds = sorted(r["rounds"] for r in rows)
    e = max(len(ended), 1)
    print(f"{n} players, {len(ended)}/{len(rows)} games ended; "
          + ", ".join(f"{p} {wins[p] / e * 100:.1f}% (fair {fair[p] / e * 100:.1f})" for p in H.PATHS)
          + f"; start player {first / e * 100:.1f}% (fair {100 / n:.1f}) ±{H.ci95(first, len(ended)):.1f}"
          + f"; rounds mean {sum(rounds) / len(rounds):.1f}, median {rounds[len(rounds) // 2]}, max {rounds[-1]}"
          + f"; {sum(r['decisions'] for r in rows) / max(sum(r['turns'] for r in rows), 1):.1f} decisions/turn"
          + f"; engine {sum(r['engine_s'] for r in rows) / len(rows) * 1000:.1f} ms per game")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("players", type=int)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--procs", type=int, default=2)
    s = sub.add_parser("sum")
    s.add_argument("file")
    a = ap.parse_args(argv)
    if a.cmd == "play":
        play(a.players, a.seed, a.games, a.procs)
    else:
        summary(a.file)


if __name__ == "__main__":
    main()
