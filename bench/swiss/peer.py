"""Our Swiss pairer side by side with a peer implementation, `swisspair` (karlosss/swisspair,
a Swiss pairer for Magic: The Gathering tournaments: a global minimum-cost perfect matching in
C++), on the same fields.

The peer is a benchmark/test-only requirement (requirements.txt: swisspair==0.2.1):

    bench/run.py swiss-peer                 # the table in docs/tournaments.md
    bench/run.py swiss-peer --seeds 3       # quicker
    bench/run.py swiss-peer --timing 1000 10000   # seconds per round, both pairers

Each field is one simulated Eiserner-Thron tournament (win 5, modified win 4, loss 0; random
results, 10% modified wins) whose history our pairer drives; in every round from round 2 on
both pairers get the very same state (points, standings, who met whom, who had a bye) and
their pairings are measured (the peer's pairing is not played):
- rematches;
- floaters: pairs across score groups (groups = the distinct point totals of the players
  being paired, i.e. without the bye's receiver);
- span: how many score groups a pair spans; "over" counts rounds whose widest span exceeds
  the smallest span with which that pairer's paired players could pair without rematches;
- |Δ points|: summed point difference of the pairs (the peer's own objective);
- bye: to the lowest-ranked player without a bye ("lowest"), or to somebody else, or a
  second bye;
- "worse": rounds in which ours had a larger |Δ points| than the peer, and rounds in which it
  had more floaters (with equal |Δ points|); "more floaters" counts rounds with more floaters
  at any |Δ points| (ours may float more to save |Δ points|, which comes first).

Odd fields: both pair the same players. The bye is the seed's rule (the lowest-ranked player
without one; ours), so the peer gets the field without our bye's receiver; left to itself it
prices the bye into its matching and gives it to somebody else in about half the rounds,
which made earlier comparisons pair different players.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "platform"), str(ROOT / "var" / "peer")]

from games.rng import Rng  # noqa: E402
import networkx  # noqa: E402,F401  (imported once here: its ~1 s import is not a round's time)
from tournaments.logic import pair_swiss, standings  # noqa: E402
from tournaments.logic.matching import max_matching_size  # noqa: E402
from tournaments.logic.simulate import play  # noqa: E402
from tournaments.logic.tally import met_sets, tally  # noqa: E402
from tournaments.logic.scoring import get_scheme  # noqa: E402

try:
    import swisspair
except ImportError:  # pragma: no cover - the peer is optional
    swisspair = None

SCHEME = get_scheme("eiserner_thron")


def peer_pairing(active, rounds, seed, bye=()):
    """swisspair's pairing of the same state: players ranked by our standings; ``bye``: the
    players our pairer gave the bye (left out, so that both pair the same players)."""
    active = [p for p in active if p not in set(bye)]
    t = tally(rounds, SCHEME, active)
    met = met_sets(rounds)
    rows = [r for r in standings(active, rounds, scheme=SCHEME, seed=seed) if r.user in set(active)]
    players = [swisspair.Player(id=str(r.user), points=int(r.points), rank=i + 1,
                                can_get_bye=t[r.user].byes == 0,
                                cannot_be_paired_against_ids={str(o) for o in met.get(r.user, ()) if o in set(active)})
               for i, r in enumerate(rows)]
    matches = swisspair.create_matches(players)
    tables = [(int(m.p1.id), int(m.p2.id)) for m in matches if not m.is_bye]
    byes = [int(m.p1.id) for m in matches if m.is_bye]
    return tables, byes


def min_span(paired, met, gi):
    need = len(paired) // 2
    for k in range(max(gi.values(), default=0) + 1):
        if max_matching_size(paired, lambda a, b, k=k: abs(gi[a] - gi[b]) <= k and b not in met.get(a, ())) == need:
            return k
    return None


def measure(tables, byes, active, rounds, seed):
    t = tally(rounds, SCHEME, active)
    met = met_sets(rounds)
    paired = [p for tb in tables for p in tb]
    # Score groups of the players being paired (the bye's receiver is out of the pairing).
    levels = sorted({t[p].points for p in paired}, reverse=True)
    gi = {p: levels.index(t[p].points) for p in paired}
    spans = [abs(gi[a] - gi[b]) for a, b in tables]
    widest = max(spans, default=0)
    k = min_span(paired, met, gi)
    out = {"rematches": sum(1 for a, b in tables if b in met.get(a, ())),
           "floaters": sum(1 for s in spans if s), "widest": widest,
           "over": int(k is not None and widest > k), "dpts": sum(abs(t[a].points - t[b].points) for a, b in tables),
           "bye_lowest": 0, "bye_other": 0, "bye_second": 0}
    if byes:
        b = byes[0]
        rows = [r.user for r in standings(active, rounds, scheme=SCHEME, seed=seed) if r.user in set(active)]
        eligible = [p for p in reversed(rows) if t[p].byes == 0]
        if t[b].byes:
            out["bye_second"] = 1
        elif eligible and b == eligible[0]:
            out["bye_lowest"] = 1
        else:
            out["bye_other"] = 1
    return out


def run(sizes, seeds):
    keys = ["rematches", "floaters", "widest", "over", "dpts", "bye_lowest", "bye_other", "bye_second"]
    print(f"{'n':>4} {'rounds':>6} {'who':>9} | {'rematch':>7} {'floaters':>8} {'max span':>8} {'over':>4} "
          f"{'|Δpts|':>7} | {'bye low':>7} {'other':>5} {'2nd':>3} | {'ms/round':>8}")
    for n in sizes:
        nrounds = math.ceil(math.log2(n)) + 1
        tot = {w: dict.fromkeys(keys, 0) for w in ("ours", "swisspair")}
        secs = {"ours": 0.0, "swisspair": 0.0}
        measured = failed = 0
        worse = {"dpts": 0, "floaters": 0, "better_dpts": 0, "more_floaters": 0}
        for seed in range(seeds):
            rng = Rng(seed)
            players = list(range(1, n + 1))
            rounds = []
            for r in range(nrounds):
                t0 = time.perf_counter()
                ours = pair_swiss(players, rounds, seed=seed)
                if r:
                    secs["ours"] += time.perf_counter() - t0
                    measured += 1
                    for k, v in measure(ours.tables, ours.byes, players, rounds, seed).items():
                        tot["ours"][k] = max(tot["ours"][k], v) if k == "widest" else tot["ours"][k] + v
                    t0 = time.perf_counter()
                    try:
                        tables, byes = peer_pairing(players, rounds, seed, ours.byes)
                    except Exception:  # the peer refuses when no rematch-free pairing exists
                        failed += 1
                    else:
                        secs["swisspair"] += time.perf_counter() - t0
                        mo = measure(ours.tables, ours.byes, players, rounds, seed)
                        mp = measure(tables, list(ours.byes) + list(byes), players, rounds, seed)
                        worse["dpts"] += mo["dpts"] > mp["dpts"]
                        worse["better_dpts"] += mo["dpts"] < mp["dpts"]
                        worse["floaters"] += mo["dpts"] == mp["dpts"] and mo["floaters"] > mp["floaters"]
                        worse["more_floaters"] += mo["floaters"] > mp["floaters"]
                        for k, v in mp.items():
                            tot["swisspair"][k] = (max(tot["swisspair"][k], v) if k == "widest"
                                                   else tot["swisspair"][k] + v)
                rounds.append(play(ours, rng))
        for who in ("ours", "swisspair"):
            x = tot[who]
            done = measured - (failed if who == "swisspair" else 0)
            ms = 1000 * secs[who] / max(done, 1)
            print(f"{n:>4} {measured:>6} {who:>9} | {x['rematches']:>7} {x['floaters']:>8} {x['widest']:>8} "
                  f"{x['over']:>4} {float(x['dpts']):>7.0f} | {x['bye_lowest']:>7} {x['bye_other']:>5} "
                  f"{x['bye_second']:>3} | {ms:>8.2f}" + (f"  ({failed} rounds refused)" if who == "swisspair" and failed else ""))
        print(f"{n:>4} rounds where ours is worse: |Δpts| {worse['dpts']}, floaters {worse['floaters']}; "
              f"better |Δpts|: {worse['better_dpts']}; more floaters at any |Δpts|: {worse['more_floaters']}")


def timing(sizes, peer=True):
    """Seconds per round for both pairers on the same simulated field, rounds 2..⌈log2 n⌉+1."""
    for n in sizes:
        rng, rounds, players = Rng(1), [], list(range(1, n + 1))
        ours_s, peer_s = [], []
        for r in range(math.ceil(math.log2(n)) + 1):
            t0 = time.perf_counter()
            p = pair_swiss(players, rounds, seed=1)
            if r:
                ours_s.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                try:
                    if not peer:
                        raise RuntimeError("not timed")
                    peer_pairing(players, rounds, 1, p.byes)
                    peer_s.append(time.perf_counter() - t0)
                except Exception:
                    pass
            rounds.append(play(p, rng))
        print(f"{n:>6} players, {len(ours_s)} rounds: ours median {sorted(ours_s)[len(ours_s) // 2]:.2f} s, "
              + (f"max {max(ours_s):.2f} s; swisspair median {sorted(peer_s)[len(peer_s) // 2]:.2f} s, "
                 f"max {max(peer_s):.2f} s" if peer_s else f"max {max(ours_s):.2f} s"), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--sizes", type=int, nargs="*", default=[8, 9, 16, 17, 32, 33, 64, 65, 128, 129])
    ap.add_argument("--timing", type=int, nargs="*", help="time both pairers at these sizes instead")
    ap.add_argument("--no-peer", action="store_true", help="with --timing: ours only (the peer is O(n³))")
    args = ap.parse_args()
    if swisspair is None:
        print("swisspair is not installed: .venv/bin/pip install 'swisspair==0.2.1'")
        return 2
    if args.timing:
        timing(args.timing, peer=not args.no_peer)
        return 0
    run(args.sizes, args.seeds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
