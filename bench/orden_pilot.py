"""Der Orden: a pilot's reaction policy on trial (issue 24) — does the pilot spend its preventers well?

The heuristic bot (and so the lookahead pilot, which leaves reactions to it) prevents a rival's ascent at the
first chance: whenever the rival ranks at least as high or stands at RANG VI or above. A preventer is spent
once (it removes itself) and costs its actor only an action, so spending it on an early ascent may waste it.
Policy ``late`` prevents only ascents from RANG VII on (to VIII, IX, IX+, X). This script measures it, without
changing the bots the site and the harness use:

    python bench/orden_pilot.py --seeds 100 duel          # late vs today's pilot, each starter mirrored, paired
    python bench/orden_pilot.py --seeds 50 cross          # the late pilot's starter against each starter, today's pilot
    python bench/orden_pilot.py --seeds 600 table:3        # the harness's 3-player table, every seat late

A duel plays every seed twice (the late pilot at seat 0, then at seat 1) with the same deck on both seats.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orden_harness as H  # noqa: E402

from games.orden import bots as B  # noqa: E402
from games.orden import rules as R  # noqa: E402

LATE_FROM = 7.0  # RANG VII: ascents to VIII, IX, IX+ and X
_EAGER = B._react  # today's policy: prevent at the first chance


def _late_react(state, s, acts, ev):
    pend = state["pend"]
    pa = B._ability(state, {"card": pend["card"], "ability": pend["ability"]})
    if pa.ascends and R.rank(state, pend["seat"]) < LATE_FROM:
        acts = [a for a in acts if a["type"] != "react"
                or not any(v.kind == "prevent" for v in B._ability(state, a).verbs)]
    return _EAGER(state, s, acts, ev)


def late_bot(state, seat, rng):
    """The lookahead pilot with the late policy, for this call only (its rollouts model every seat's
    reactions with it too); nothing outside the call changes."""
    B._react = _late_react
    try:
        return B.lookahead_bot(state, seat, rng)
    finally:
        B._react = _EAGER


def duel(run, seeds, cross=False):
    """The late pilot with starter ``p`` against today's pilot with the same starter (``cross``: with each starter)."""
    for p in H.PATHS:
        tasks = [t for q in (H.PATHS if cross else (p,))
                 for t in run.pair_tasks(f"starter:{p}", f"starter:{q}", seeds, pilots=("lookahead-late", "lookahead"))]
        won, ended, ci = H.paired_share(tasks, run.run(tasks))
        print(f"{p} {'against every starter' if cross else 'mirror'}: the late pilot wins {won / ended * 100:.1f} % ±"
              f"{ci:.1f} ({ended} games)", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("spec", help="duel | cross | table:N")
    a = ap.parse_args(argv)
    B.BOTS["lookahead-late"] = late_bot  # before the pool forks: the workers inherit it (not the site's list)
    print(f"data {H.data_version()}, seeds {a.seed}..{a.seed + a.seeds - 1}", flush=True)
    t0 = time.time()
    if a.spec in ("duel", "cross"):
        run = H.Runner(2, "lookahead")
        duel(run, list(range(a.seed, a.seed + a.seeds)), cross=a.spec == "cross")
    elif a.spec.startswith("table:"):
        run = H.Runner(2, "lookahead-late")
        H.part_table(run, a.seeds, H.TABLE_SEED0 + a.seed, counts=(int(a.spec[6:]),))  # orden_quick's seeds
    else:
        raise SystemExit(f"unknown spec {a.spec!r}")
    run.close()
    print(f"{time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
