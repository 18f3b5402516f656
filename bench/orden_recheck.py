"""Der Orden: re-check a data change against finds the harness already made (issue 24), when a
whole search does not fit: the starters, the given finds verified on fresh seeds against every
starter, and the optional-rank rows. The decks are named like the harness's verification prints them.

    python bench/orden_recheck.py --games 200 --verify 400 --others 100 --ranks 100 --json out.json
    python bench/orden_recheck.py --only table --table 150 --counts 2,3
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orden_harness as H  # noqa: E402
from games.orden import decks as D  # noqa: E402


def hammer_with(rank_v):
    """Stop 32's search finds: the Hammer starter with another path's rank V in the Pfad instead of
    Geselle, Der Zehnt out, a third Treueschwur and Triumvirat in (49 cards; of the 48-card starter)."""
    base = H.starter_48("hammer")
    pfad = [D.current_no(rank_v) if n == D.current_no("Geselle") else n for n in base["pfad"]]
    cards = list(base["cards"])
    cards.remove(D.current_no("Der Zehnt"))
    cards += [D.current_no("Treueschwur"), D.current_no("Triumvirat")]
    return {**base, "pfad": pfad, "cards": cards}


FINDS = {"walk:hammer:3 (Lehrer at V)": lambda: hammer_with("Lehrer"),
         "walk:hammer:3+m13 (Ritter at V)": lambda: hammer_with("Ritter")}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--verify", type=int, default=400)
    ap.add_argument("--others", type=int, default=100)
    ap.add_argument("--ranks", type=int, default=100)
    ap.add_argument("--table", type=int, default=0, help="games per player count (0: no table)")
    ap.add_argument("--counts", default="2,3", help="player counts for the table")
    ap.add_argument("--only", default="starters,verify,ranks,table")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    out = {"version": H.data_version(), "conf": vars(a)}
    print(f"data {out['version']}, {vars(a)}", flush=True)
    run = H.Runner(2, "lookahead")
    try:
        only = a.only.split(",")
        if "starters" in only or "verify" in only:
            out["starters"] = H.part_starters(run, a.games, a.seed)
        if "verify" in only:
            finds = [(label, make()) for label, make in FINDS.items()]
            out["verify"] = H.part_verify(run, finds, a.verify, 10 ** 6 + a.seed, out["starters"]["best"], a.others)
        if "ranks" in only:
            out["ranks"] = H.part_ranks(run, a.ranks, 2 * 10 ** 6 + a.seed)
        if "table" in only and a.table:
            counts = tuple(int(n) for n in a.counts.split(","))
            out["table"] = H.part_table(run, a.table, 3 * 10 ** 6 + a.seed, counts)
    finally:
        run.close()
    out["goals"] = [{"goal": g, "measured": m, "met": ok} for g, m, ok in H.goals(out)]
    for g in out["goals"]:
        print(("met " if g["met"] else "NOT ") + f"{g['goal']}: {g['measured']}")
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
