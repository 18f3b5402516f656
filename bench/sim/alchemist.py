"""Alchemist simulations: N random-bot games per player count, plus heuristic vs random.

    bench/run.py alchemist            # 10,000 games per player count
    bench/run.py alchemist --smoke    # 50 games, for CI

Single process on purpose (shared 2-core machine). Reports: every game ends, length in
turns/rounds, average winning score, how often school points change the winner, engine time
per full game (setup + apply only) and total time per game (incl. bot moves).

No-schools effect: the two variants cannot replay the same moves with the same seed, so every
game is played WITH schools and then scored twice: as is, and without the school points (ties
then shared). A game counts as "changed" when the set of winners differs.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.alchemist.bots import heuristic_bot, random_bot  # noqa: E402
from games.alchemist.engine import AlchemistEngine  # noqa: E402
from games.rng import Rng  # noqa: E402

E = AlchemistEngine()
MAX_TURNS = 10_000


def play(players: int, seed: int, policies, no_schools=False, listing=None):
    """One game; returns (state, engine_seconds, total_seconds). With ``listing`` (a list),
    also times legal_actions + view for the mover each turn (not in either figure's engine part)."""
    t0 = time.perf_counter()
    state = E.setup(players, {"no_schools": no_schools}, seed, [])
    engine = time.perf_counter() - t0
    rng = Rng(seed * 1_000_003 + 17)
    apply = E.apply
    clock = time.perf_counter
    while not state["finished"]:
        seat = state["turn"]
        if listing is not None:
            a = clock()
            E.legal_actions(state, seat)
            b = clock()
            E.view(state, seat)
            listing.append(((b - a) * 1000, (clock() - b) * 1000))
        action = policies[seat](state, seat, rng)
        a = clock()
        state = apply(state, seat, action).state
        engine += clock() - a
        if state["turns"] > MAX_TURNS:
            break
    return state, engine, time.perf_counter() - t0


def winners(totals: list[int]) -> set[int]:
    best = max(totals)
    return {s for s, t in enumerate(totals) if t == best}


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def random_games(players: int, n: int, base_seed: int) -> dict:
    turns, rounds, win_scores, eng, tot = [], [], [], [], []
    unfinished = changed = 0
    policies = [random_bot] * players
    for g in range(n):
        state, e, t = play(players, base_seed + g, policies)
        if not state["finished"]:
            unfinished += 1
            continue
        eng.append(e * 1000)
        tot.append(t * 1000)
        turns.append(state["turns"])
        rounds.append(state["round"])
        final = state["final"]["seats"]
        win_scores.append(max(r["total"] for r in final))
        with_schools = {r["seat"] for r in final if r["place"] == 1}
        without = winners([r["total"] - r["school_points"] for r in final])
        changed += with_schools != without
    return {
        "players": players, "games": n, "unfinished": unfinished,
        "turns_mean": statistics.fmean(turns), "turns_min": min(turns), "turns_max": max(turns),
        "turns_median": statistics.median(turns), "rounds_mean": statistics.fmean(rounds),
        "win_score_mean": statistics.fmean(win_scores),
        "no_schools_changes_winner": changed / (n - unfinished),
        "engine_ms_mean": statistics.fmean(eng), "engine_ms_median": statistics.median(eng),
        "engine_ms_p99": pct(eng, 0.99), "total_ms_mean": statistics.fmean(tot),
        "total_ms_median": statistics.median(tot),
    }


def listing_costs(players: int, n: int, base_seed: int) -> dict:
    """What the platform pays per turn besides apply: legal_actions and view for the mover."""
    listing: list = []
    for g in range(n):
        play(players, base_seed + g, [random_bot] * players, listing=listing)
    return {"legal_actions_ms_mean": statistics.fmean(x for x, _ in listing),
            "legal_actions_ms_max": max(x for x, _ in listing),
            "view_ms_mean": statistics.fmean(y for _, y in listing), "calls": len(listing)}


def heuristic_vs_random(players: int, n: int, base_seed: int) -> dict:
    wins = 0
    scores = []
    for g in range(n):
        hseat = g % players  # rotate the heuristic seat
        policies = [heuristic_bot if s == hseat else random_bot for s in range(players)]
        state, _, _ = play(players, base_seed + g, policies)
        final = state["final"]["seats"]
        wins += final[hseat]["place"] == 1
        scores.append(final[hseat]["total"])
    return {"players": players, "games": n, "heuristic_win_rate": wins / n,
            "fair_share": 1 / players, "heuristic_score_mean": statistics.fmean(scores)}


def machine() -> str:
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10_000, help="random games per player count")
    ap.add_argument("--vs-games", type=int, default=1_000, help="heuristic-vs-random games per count")
    ap.add_argument("--smoke", action="store_true", help="50 / 20 games: a quick check")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="also write the figures as JSON to this file")
    args = ap.parse_args(argv)
    if args.smoke:
        args.games, args.vs_games = 50, 20
    started = time.perf_counter()
    report = {"date": datetime.date.today().isoformat(), "machine": machine(),
              "command": "bench/run.py alchemist " + " ".join(argv if argv is not None else sys.argv[1:]),
              "random": [], "heuristic_vs_random": []}
    print(f"# Alchemist simulation, {report['date']}, {report['machine']}")
    print("| players | games | unfinished | turns mean (min-max) | rounds mean | avg winning score "
          "| winner changed w/o schools | engine ms/game mean / median / p99 | total ms/game mean |")
    print("|---|---|---|---|---|---|---|---|---|")
    for players in (2, 3, 4):
        r = random_games(players, args.games, args.seed)
        report["random"].append(r)
        print(f"| {players} | {r['games']} | {r['unfinished']} | {r['turns_mean']:.1f} "
              f"({r['turns_min']}-{r['turns_max']}) | {r['rounds_mean']:.1f} | {r['win_score_mean']:.1f} "
              f"| {100 * r['no_schools_changes_winner']:.1f}% | {r['engine_ms_mean']:.3f} / "
              f"{r['engine_ms_median']:.3f} / {r['engine_ms_p99']:.3f} | {r['total_ms_mean']:.2f} |",
              flush=True)
    print()
    print("| players | legal_actions ms/call mean (max) | view ms/call mean | calls |")
    print("|---|---|---|---|")
    for r in report["random"]:
        r.update(listing_costs(r["players"], min(200, args.games), args.seed))
        print(f"| {r['players']} | {r['legal_actions_ms_mean']:.3f} ({r['legal_actions_ms_max']:.2f}) "
              f"| {r['view_ms_mean']:.3f} | {r['calls']} |")
    print()
    print("| players | games | heuristic wins (1 heuristic + random) | fair share | heuristic avg score |")
    print("|---|---|---|---|---|")
    for players in (2, 3, 4):
        h = heuristic_vs_random(players, args.vs_games, args.seed + 500_000)
        report["heuristic_vs_random"].append(h)
        print(f"| {players} | {h['games']} | {100 * h['heuristic_win_rate']:.1f}% | "
              f"{100 * h['fair_share']:.0f}% | {h['heuristic_score_mean']:.1f} |", flush=True)
    report["wall_seconds"] = time.perf_counter() - started
    print(f"\nwall time {report['wall_seconds']:.0f} s")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 1 if any(r["unfinished"] for r in report["random"]) else 0


if __name__ == "__main__":
    sys.exit(main())
