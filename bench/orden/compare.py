"""Der Orden: the card designer's loop — paired two-player comparisons (or a table) on common seeds.

    bench/run.py orden compare --seed 1 --seeds 60 starters            # the three starters round robin
    bench/run.py orden compare --seed 1 --seeds 60 vs:hammer:buch      # one pairing (the first deck's share)
    bench/run.py orden compare drop:hammer:VI+                         # a starter without VI+ against itself with it
    bench/run.py orden compare "swap:hammer:Burg Eisenfels:Demut:buch" # a starter with one card swapped, against a starter
    bench/run.py orden compare find:Lehrer:hammer                      # a walk the search found (harness.hammer_with)
    bench/run.py orden compare known:thin-grace:schwert                # a named find (harness.KNOWN_DECKS)
    bench/run.py orden compare "knownmod:thin-grace:Lehrer=Geselle,-Gnade:schwert"  # a named find edited
    bench/run.py orden compare "mod:hammer:-IX+,-Meisterin Hedwig,+Werkzeug:buch"  # a starter edited, against a starter
    bench/run.py orden compare "known:thin-hammer:hammer/-Gehorsam,-Gebet"  # an opponent PATH/EDITS: its starter edited
    bench/run.py orden compare --seeds 300 "table:4"                   # a 4-player table (the report's), 300 games
    bench/run.py orden compare --seeds 300 "table:4:hammer:-Das Fundament,+Demut"  # the same with one starter edited
    bench/run.py orden compare --seeds 300 "table:3:all:+Einspruch:hammer:-Gehorsam"  # several (all: every starter)
    bench/run.py orden compare --policy late --seeds 100 duel          # a trial reaction policy (pilots.py), mirrored
    bench/run.py orden compare --policy eager --seeds 60 cross         # ... its starter against each starter
    bench/run.py orden compare --policy late --seeds 600 table:3       # ... on every seat of a 3-player table
    bench/run.py orden compare --climb --seed 1000001 --seeds 40 "mod:buch:-VI+,-Magister Gregor:hammer"
                                                                       # which rule raised deck A at each rank (climb.py)

Each seed is played twice (seats swapped); ± is a 95 % interval over seeds (simulate.seed_ci95).
To try a card change, edit games/orden/cards/*.json and run again on the same seeds: the deal is the
same, so the difference is the change's (and the pilot's). ``--json`` writes every figure as well.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import NamedTuple

from bench.orden import climb as C
from bench.orden import harness as H
from bench.orden import pilots
from games.orden import decks as D

SPECS = ("starters | vs:A:B | drop:PATH:RANK | swap:PATH:OUT:IN:OPP | find:RANKV:OPP | mod:PATH:EDITS:OPP"
         " | known:LABEL:OPP | knownmod:LABEL:EDITS:OPP | table:N[:PATH:EDITS...] | duel | cross")


def swapped(path, out, inn):
    deck = D.starter(path)
    cards = list(deck["cards"])
    cards[cards.index(D.current_no(out))] = D.current_no(inn)
    return {**deck, "cards": cards}


class Pair(NamedTuple):
    """Paired two-player games: deck ``a`` against deck ``b`` on every seed, seats swapped."""
    label: str
    a: object
    b: object
    seeds: list


class Table(NamedTuple):
    """The harness's table for ``players`` players; ``decks``: path → a deck that is not its starter."""
    label: str
    players: int
    decks: dict
    games: int


def edited(path, edits):
    try:
        return H.edited(path, edits)
    except ValueError as e:  # a bad edit, or a deck the card data does not allow (DeckError)
        raise SystemExit(f"{path} {edits}: {e}")


def opponent(spec):
    """The deck played against: ``PATH`` (its starter) or ``PATH/EDITS`` (the starter edited, as in ``mod``)."""
    path, _, edits = spec.partition("/")
    return edited(path, edits) if edits else f"starter:{path}"


def jobs_for(spec, seeds):
    """A spec → [Pair | Table]."""
    kind, *args = spec.split(":")
    if kind == "starters":
        return [Pair(f"{a} vs {b}", f"starter:{a}", f"starter:{b}", seeds)
                for i, a in enumerate(H.PATHS) for b in H.PATHS[i + 1:]]
    if kind == "vs":
        a, b = args
        return [Pair(f"{a} vs {b}", f"starter:{a}", f"starter:{b}", seeds)]
    if kind == "drop":
        path, label = args
        full = D.starter(path)
        return [Pair(f"{path} without {label} vs with it", H.drop(full, tuple(label.split("+and+"))), full, seeds)]
    if kind == "swap":
        path, out, inn, opp = args
        return [Pair(f"{path} with {inn} for {out} vs {opp}", swapped(path, out, inn), opponent(opp), seeds)]
    if kind == "mod":
        path, edits, opp = args
        return [Pair(f"{path} {edits} vs {opp}", edited(path, edits), opponent(opp), seeds)]
    if kind == "table":  # table:N[:PATH:EDITS[:PATH:EDITS...]], PATH "all": each starter
        n, *edit = args
        if len(edit) % 2:
            raise SystemExit(f"{spec}: a table's edits come as PATH:EDITS pairs")
        per_path = {}  # the edits of each path, in the order given ("all" and a path's own add up)
        for path, edits in zip(edit[::2], edit[1::2]):
            for p in H.PATHS if path == "all" else (path,):
                per_path[p] = f"{per_path[p]},{edits}" if p in per_path else edits
        decks = {p: edited(p, edits) for p, edits in per_path.items()}
        label = "".join(f", {path} {edits}" for path, edits in zip(edit[::2], edit[1::2]))
        return [Table(f"{n} players{label}", int(n), decks, len(seeds))]
    if kind in ("duel", "cross"):  # each starter against itself (duel) or every starter (cross): for --policy
        return [Pair(f"{a} vs {b}", f"starter:{a}", f"starter:{b}", seeds)
                for a in H.PATHS for b in (H.PATHS if kind == "cross" else (a,))]
    if kind == "known":  # a named find (harness.KNOWN_DECKS), against a starter
        label, opp = args
        decks = dict(H.known())
        if f"known:{label}" not in decks:
            raise SystemExit(f"no known deck {label!r} the current cards allow")
        return [Pair(f"{label} vs {opp}", decks[f"known:{label}"], opponent(opp), seeds)]
    if kind == "knownmod":  # a named find edited (harness.known_edited), against a starter
        label, edits, opp = args
        try:
            deck = H.known_edited(label, edits)
        except (ValueError, StopIteration, KeyError, D.DeckError) as e:
            raise SystemExit(f"{label} {edits}: {e!r}")
        return [Pair(f"{label} {edits} vs {opp}", deck, opponent(opp), seeds)]
    if kind == "find":
        rank_v, opp = args
        return [Pair(f"the {rank_v} find vs {opp}", H.hammer_with(rank_v), opponent(opp), seeds)]
    raise SystemExit(f"unknown spec {spec!r}: {SPECS}")


def climbs(job, pilot):
    """``--climb``: the pairing's games, deck A traced rank by rank."""
    tasks = []
    for seed in job.seeds:
        tasks.append({"decks": [job.a, job.b], "seed": seed, "seat": 0, "pilot": pilot})
        tasks.append({"decks": [job.b, job.a], "seed": seed, "seat": 1, "pilot": pilot})
    import multiprocessing as mp
    with mp.get_context("fork").Pool(2) as pool:
        return pool.map(C.climb_game, tasks, chunksize=1)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="bench/run.py orden compare", description=__doc__.split("\n")[0],
                                 epilog="specs: " + SPECS)
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=40, help="seeds (two games each; a table: games)")
    ap.add_argument("--policy", choices=sorted(pilots.POLICIES),
                    help="deck A's seat (a table: every seat) plays the lookahead pilot with this reaction policy")
    ap.add_argument("--climb", action="store_true", help="trace how deck A climbs instead of counting wins")
    ap.add_argument("--json", help="write every figure here as well")
    a = ap.parse_args(argv)
    seeds = list(range(a.seed, a.seed + a.seeds))
    jobs = [j for spec in a.specs for j in jobs_for(spec, seeds)]  # unknown specs fail before any game
    trial = pilots.register(a.policy) if a.policy else None  # before the pool forks: the workers inherit it
    print(f"data {H.data_version()}, seeds {a.seed}..{a.seed + a.seeds - 1}"
          + (f", deck A's pilot: {trial}" if trial else ""), flush=True)
    t0, out = time.time(), {"version": H.data_version(), "conf": vars(a), "results": []}
    if a.climb:
        for job in jobs:
            if isinstance(job, Table):
                raise SystemExit("--climb traces two-player comparisons, not a table")
            games = climbs(job, trial or "lookahead")
            print(job.label + ":\n" + "\n".join(C.report(games)), flush=True)
            out["results"].append({"label": job.label, "climb": games})
    else:
        run = H.Runner(2, "lookahead")
        table_run = H.Runner(2, trial) if trial and any(isinstance(j, Table) for j in jobs) else run
        try:
            for job in jobs:
                if isinstance(job, Table):
                    print(job.label + ": ", end="", flush=True)
                    row = H.part_table(table_run, job.games, H.TABLE_SEED0 + a.seed, (job.players,), job.decks)
                    out["results"].append({"label": job.label, "table": row})
                    continue
                (w, e, ci), = run.pairings([(job.a, job.b, job.seeds)], (trial, "lookahead") if trial else None)
                print(f"{job.label}: {w / max(e, 1) * 100:.1f} % ±{ci:.1f} ({e} games)", flush=True)
                out["results"].append({"label": job.label, "a_wins": w / max(e, 1), "ended": e, "ci95": ci})
        finally:
            run.close()
            if table_run is not run:
                table_run.close()
    print(f"{time.time() - t0:.0f} s", flush=True)
    if a.json:
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps(out, indent=1, default=str))
    return out


if __name__ == "__main__":
    main()
