"""Der Orden: simulated games with the engine's bots.

    python bench/orden_sim.py --smoke            # ~30 games per player count
    python bench/orden_sim.py                    # 10,000 games per player count
    python bench/orden_sim.py --games 2000 --players 3 --bot heuristic

Per player count: how many games end (a safety cap of --cap rounds counts as "not ended"),
rounds per game, each path's win rate (seats get the three starter decks in rotation; with 3
players that is three-path mirror play), engine time per game (apply + legal_actions as
used by the bots, i.e. everything but the bots' own choosing) and total time per game, both
as CPU time of this process (the machine may be shared; wall time is printed too).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.orden.roster import BOTS  # noqa: E402
from games.orden import legal as L  # noqa: E402
from games.orden.engine import ENGINE  # noqa: E402
from games.rng import Rng  # noqa: E402

PATHS = ("schwert", "hammer", "buch")


class Timer:
    def __init__(self):
        self.t = 0.0  # setup + apply + legal_actions
        self.apply = 0.0  # setup + apply only (what a match costs the platform per move)


def play_game(players, seed, bot, cap, timer):
    decks = [{"deck": f"starter:{PATHS[(seed + i) % 3]}"} for i in range(players)]
    rng = Rng(seed * 7919 + 1)
    t0 = time.process_time()
    st = ENGINE.setup(players, {}, seed, decks)
    timer.t += time.process_time() - t0
    timer.apply += time.process_time() - t0
    fn = BOTS[bot]
    steps = 0
    orig_legal = L.legal
    while st["result"] is None and st["round"] <= cap:
        seat = ENGINE.to_move(st)[0]
        t0 = time.process_time()
        acts = orig_legal(st, seat)  # what the bot sees, timed as engine work
        timer.t += time.process_time() - t0
        action = fn(st, seat, rng) if len(acts) > 1 else acts[0]
        t0 = time.process_time()
        st = ENGINE.apply(st, seat, action).state
        dt = time.process_time() - t0
        timer.t += dt
        timer.apply += dt
        steps += 1
    return st, steps


def run(players, games, bot, cap, seed0=1):
    timer = Timer()
    rounds, steps_l, ended = [], [], 0
    wins = {p: 0 for p in PATHS}
    seats = {p: 0 for p in PATHS}
    start = time.process_time()
    wall = time.perf_counter()
    for g in range(games):
        st, steps = play_game(players, seed0 + g, bot, cap, timer)
        for p in st["p"]:
            seats[p["path"]] += 1
        if st["result"] is not None:
            ended += 1
            rounds.append(st["round"])
            steps_l.append(steps)
            winner = next(x["seat"] for x in st["result"]["placements"] if x["place"] == 1)
            wins[st["p"][winner]["path"]] += 1
    total = time.process_time() - start
    wall = time.perf_counter() - wall
    rounds.sort()
    return {
        "players": players, "games": games, "ended": ended, "bot": bot,
        "rounds_mean": statistics.mean(rounds) if rounds else 0,
        "rounds_median": statistics.median(rounds) if rounds else 0,
        "rounds_p90": rounds[int(len(rounds) * 0.9)] if rounds else 0,
        "rounds_max": max(rounds) if rounds else 0,
        "steps_mean": statistics.mean(steps_l) if steps_l else 0,
        # win rate per path = wins / games in which the path took part (per seat share)
        "win_rate": {p: (wins[p] / ended if ended else 0) for p in PATHS},
        "seat_share": {p: seats[p] / (games * players) for p in PATHS},
        "engine_ms_per_game": timer.t / games * 1000,
        "apply_ms_per_game": timer.apply / games * 1000,
        "total_ms_per_game": total / games * 1000,
        "wall_s": wall,
    }


def show(r):
    wr = ", ".join(f"{p} {r['win_rate'][p] * 100:.1f}% (seats {r['seat_share'][p] * 100:.0f}%)" for p in PATHS)
    print(f"{r['players']} players, {r['games']} games ({r['bot']}): ended {r['ended']}/{r['games']}; "
          f"rounds mean {r['rounds_mean']:.1f}, median {r['rounds_median']}, p90 {r['rounds_p90']}, "
          f"max {r['rounds_max']}; steps {r['steps_mean']:.0f}; wins: {wr}; "
          f"engine {r['engine_ms_per_game']:.1f} ms/game (setup+apply only {r['apply_ms_per_game']:.1f}), with bots {r['total_ms_per_game']:.1f} ms/game "
          f"(CPU time); wall {r['wall_s']:.0f} s",
          flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--smoke", action="store_true", help="30 games per player count")
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--bot", default="heuristic", choices=sorted(BOTS))
    ap.add_argument("--cap", type=int, default=500, help="safety cap in rounds (reported as not ended)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="also write the results to this file")
    a = ap.parse_args(argv)
    games = 30 if a.smoke else a.games
    results = [run(int(n), games, a.bot, a.cap, a.seed) for n in a.players.split(",")]
    for r in results:
        show(r)
    if a.json:
        import json
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
