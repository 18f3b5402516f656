"""Der Orden: a pilot's reaction policy on trial (issue 24) — does the pilot spend its preventers well?

A prevented rival keeps its cards and tries again next turn, while the preventer is spent (it removes itself)
or paid for, so when to prevent is a real choice. The bots prevent a rival's ascent only from
``bots.PREVENT_FROM`` on (RANG IX since stop 50: the ascents to IX+ and X), and only a rival ranked at least
as high or at VI and above. A trial policy replaces that for the trial pilot's own reactions:

- a rank line: ``eager`` (the first chance, the bots before stop 50), ``mid`` (from VI), ``late`` (VII),
  ``later`` (VIII), ``last`` (IX, today's), ``never``;
- ``keep``: the first chance for a rank card's preventer (paid from the hand, it answers again next time), VII
  for one that removes or discards itself; ``price``: VII only for one paid with itself and further cards
  (Ruf zu den Waffen, Bestechung, Einspruch), the first chance for the rest (Disputation).

    python bench/orden_pilot.py --policy late --seeds 100 duel    # against today's pilot, each starter mirrored
    python bench/orden_pilot.py --policy eager --seeds 60 cross   # its starter against each starter, today's pilot
    python bench/orden_pilot.py --policy late --seeds 600 table:3  # the harness's 3-player table, every seat trial

A duel plays every seed twice (the trial pilot at seat 0, then at seat 1) with the same deck on both seats.
The bots the site and the harness use do not change.
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
from games.orden.lookahead import lookahead_bot  # noqa: E402
from games.orden.roster import BOTS  # noqa: E402
from games.orden import rules as R  # noqa: E402

LATE_FROM = 7.0  # keep / price: the spent preventers wait for the ascents from VII on
_TODAY = B._react


def _spends_itself(ab) -> bool:
    return any(c.what == "self" for c in ab.costs)


def _costs_more(ab) -> bool:
    return _spends_itself(ab) and any(c.what != "self" for c in ab.costs)


def _line(rank_from, held=None):
    """A react policy: prevent from ``rank_from`` on; the preventers ``held`` picks only from LATE_FROM on."""
    def react(state, s, acts, ev):
        pend = state["pend"]
        pa = R.ability(state, {"card": pend["card"], "ability": pend["ability"]})
        if held is not None and pa.ascends and R.rank(state, pend["seat"]) < LATE_FROM:
            acts = [a for a in acts if not R.prevents(state, a) or not held(R.ability(state, a))]
        B.PREVENT_FROM = rank_from
        return _TODAY(state, s, acts, ev)
    return react


POLICIES = {"eager": _line(0.0), "mid": _line(6.0), "late": _line(7.0), "later": _line(8.0), "last": _line(9.0),
            "never": _line(99.0), "keep": _line(0.0, _spends_itself), "price": _line(0.0, _costs_more)}


def pilot(policy):
    def bot(state, seat, rng):
        """The lookahead pilot with ``policy`` for its own reactions only: its rollouts still model the
        opponents' reactions as today's pilot plays them (a trial pilot that expected its opponents to
        play its policy would misjudge them), and nothing outside the call changes."""
        if state["phase"] != "react":
            return lookahead_bot(state, seat, rng)
        line = B.PREVENT_FROM
        B._react = POLICIES[policy]
        try:
            return lookahead_bot(state, seat, rng)  # react: the heuristic bot's call, no rollouts
        finally:
            B._react, B.PREVENT_FROM = _TODAY, line
    return bot


def duel(run, seeds, policy, cross=False):
    """The trial pilot with starter ``p`` against today's pilot with the same starter (``cross``: with each starter)."""
    for p in H.PATHS:
        tasks = [t for q in (H.PATHS if cross else (p,))
                 for t in run.pair_tasks(f"starter:{p}", f"starter:{q}", seeds, pilots=(f"lookahead-{policy}", "lookahead"))]
        won, ended, ci = H.paired_share(tasks, run.run(tasks))
        print(f"{p} {'against every starter' if cross else 'mirror'}: the {policy} pilot wins {won / ended * 100:.1f} % ±"
              f"{ci:.1f} ({ended} games)", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--policy", choices=sorted(POLICIES), default="eager")
    ap.add_argument("spec", help="duel | cross | table:N")
    a = ap.parse_args(argv)
    BOTS[f"lookahead-{a.policy}"] = pilot(a.policy)  # before the pool forks: the workers inherit it (not the site's list)
    print(f"data {H.data_version()}, policy {a.policy}, seeds {a.seed}..{a.seed + a.seeds - 1}", flush=True)
    t0 = time.time()
    if a.spec in ("duel", "cross"):
        run = H.Runner(2, "lookahead")
        duel(run, list(range(a.seed, a.seed + a.seeds)), a.policy, cross=a.spec == "cross")
    elif a.spec.startswith("table:"):
        run = H.Runner(2, f"lookahead-{a.policy}")
        H.part_table(run, a.seeds, H.TABLE_SEED0 + a.seed, counts=(int(a.spec[6:]),))  # orden_quick's seeds
    else:
        raise SystemExit(f"unknown spec {a.spec!r}")
    run.close()
    print(f"{time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
