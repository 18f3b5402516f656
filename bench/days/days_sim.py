"""Matches played over days: calendar days to finish, and how often a decision waits
on someone who is not the player to move. A pure simulation: engine + bots, no Django.

    bench/run.py days                 # 60 games each: Der Orden (4 players) before/after, Alchemist (3)
    bench/run.py days --games 200 --seed 1000

The model: the heuristic bot decides for every seat. A decision handed to a person is answered
after a random delay of 1–24 h (uniform, seeded); the same person's next decisions in a row
(the rest of a turn, a payment right after its own Aktion) follow in the same sitting, without
a new delay. A decision that waits on a seat other than the player whose turn it is (Der
Orden: being asked in a reaction window, paying for or choosing in a reaction) counts as a
"wait on others". Der Orden's reaction windows close after 24 h (the default deadline), which
the 1–24 h delays never exceed.

"before": no orders. "after": every seat holds Der Orden's orders as a typical player would set
them, `reactions: prevent_ascents from VII` and `payment: auto`; they answer in the same step
(games/order_loop.py, as the platform does), with no delay. Alchemist has no game orders of its
own, only the platform's generic premoves (not simulated): its figures are without orders.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.order_loop import answer_by_orders  # noqa: E402
from games.rng import Rng  # noqa: E402

PATHS = ("schwert", "hammer", "buch")
TYPICAL = [{"kind": "reactions", "policy": "prevent_ascents", "min_rank": "VII"}, {"kind": "payment", "policy": "auto"}]
MAX_STEPS = 20_000


def orden_game(players, seed):
    from games.orden.bots import heuristic_bot
    from games.orden.plugin import PLUGIN
    decks = [{"deck": f"starter:{PATHS[(seed + i) % 3]}"} for i in range(players)]
    st = PLUGIN.engine.setup(players, {}, seed, decks)
    return PLUGIN, st, heuristic_bot, (lambda s: s["cur"]), (lambda s: s["round"])


def alchemist_game(players, seed):
    from games.alchemist.bots import heuristic_bot
    from games.registry import get
    plugin = get("alchemist")
    st = plugin.engine.setup(players, {}, seed, [])
    return plugin, st, heuristic_bot, (lambda s: s["turn"]), (lambda s: s["turns"] / s["n"])


def play(game, players, seed, with_orders):
    plugin, st, bot, cur_of, rounds_of = game(players, seed)
    engine = plugin.engine
    orders = {s: TYPICAL for s in range(players)} if with_orders else {}
    rng = Rng(seed * 7919 + 1)  # the bots' choices
    delays = random.Random(seed * 104729 + 3)  # the people's answering times
    hours = 0.0
    waits = waits_others = by_order = 0
    sitting = None  # the person whose decisions follow in one sitting
    for _ in range(MAX_STEPS):
        if orders:
            st, applied = answer_by_orders(plugin, st, orders)
            by_order += len(applied)
        movers = engine.to_move(st)
        if not movers:
            break
        seat = movers[0]
        if seat != sitting:  # handed to a person: they answer after 1–24 h
            hours += delays.uniform(1.0, 24.0)
            waits += 1
            waits_others += seat != cur_of(st)
            sitting = seat
        st = engine.apply(st, seat, bot(st, seat, rng)).state
    else:
        raise RuntimeError(f"{game.__name__} seed {seed}: no end after {MAX_STEPS} steps")
    rounds = max(rounds_of(st), 1)
    return {"days": hours / 24, "rounds": rounds, "waits": waits, "others": waits_others,
            "others_per_round": waits_others / rounds, "waits_per_round": waits / rounds, "by_order": by_order}


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summary(label, rows):
    days = [r["days"] for r in rows]
    opr = [r["others_per_round"] for r in rows]
    wpr = [r["waits_per_round"] for r in rows]
    return (f"| {label} | {len(rows)} | {statistics.median(days):.0f} | {pct(days, 0.9):.0f} | "
            f"{statistics.mean(r['rounds'] for r in rows):.1f} | {statistics.mean(wpr):.2f} | "
            f"{statistics.mean(opr):.2f} | {statistics.mean(r['by_order'] for r in rows):.0f} |")


def time_payments(seeds):
    import time

    from games.orden import orders
    pick, times = orders.payment_pick, []

    def timed(state, seat):
        t0 = time.process_time()
        try:
            return pick(state, seat)
        finally:
            times.append(time.process_time() - t0)
    orders.payment_pick = timed
    try:
        for s in seeds:
            play(orden_game, 4, s, True)
    finally:
        orders.payment_pick = pick
    times.sort()
    print(f"{len(times)} automatic payment picks: median {times[len(times) // 2] * 1000:.2f} ms, "
          f"p99 {times[int(0.99 * len(times))] * 1000:.1f} ms, max {times[-1] * 1000:.0f} ms CPU")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-payments", action="store_true",
                    help="only time Der Orden's automatic payment picks (CPU) over --games 4-player games with orders")
    args = ap.parse_args(argv)
    if args.time_payments:
        return time_payments(range(args.seed, args.seed + args.games))
    seeds = range(args.seed, args.seed + args.games)
    print("| match | games | days to finish, median | p90 | rounds (mean) | waits on a person per round "
          "| of them on others per round | decisions answered by orders per game |")
    print("|---|---|---|---|---|---|---|---|")
    print(summary("Der Orden, 4 players, no orders (before)", [play(orden_game, 4, s, False) for s in seeds]))
    print(summary("Der Orden, 4 players, prevent_ascents VII + auto payment (after)",
                  [play(orden_game, 4, s, True) for s in seeds]))
    print(summary("Alchemist, 3 players, no orders", [play(alchemist_game, 3, s, False) for s in seeds]))


if __name__ == "__main__":
    main()
