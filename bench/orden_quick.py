"""Der Orden: the card designer's quick loop (issue 24) — a few paired two-player comparisons on
common seeds, lookahead pilot, 2 processes. Every figure in docs/games/orden.md's "Balance (data
version 4, second round)" that is not from the harness came from this script.

    python bench/orden_quick.py --seed 1 --seeds 60 starters            # the three starters round robin
    python bench/orden_quick.py --seed 1 --seeds 60 vs:hammer:buch      # one pairing (the first deck's share)
    python bench/orden_quick.py drop:hammer:VI+                         # a starter without VI+ against itself with it
    python bench/orden_quick.py "swap:hammer:Burg Eisenfels:Demut:buch" # a starter with one card swapped, against a starter
    python bench/orden_quick.py find:Lehrer:hammer                      # a known find (orden_recheck.FINDS) against a starter
    python bench/orden_quick.py known:thin-grace:schwert                # a named find (orden_harness.KNOWN_DECKS)
    python bench/orden_quick.py "knownmod:thin-grace:Lehrer=Geselle,-Gnade:schwert"  # a named find edited
    python bench/orden_quick.py "mod:hammer:-IX+,-Meisterin Hedwig,+Werkzeug:buch"  # a starter edited, against a starter
    python bench/orden_quick.py "known:thin-hammer:hammer/-Gehorsam,-Gebet"  # an opponent PATH/EDITS: its starter edited
    python bench/orden_quick.py --seeds 300 "table:4"                   # a 4-player table (the harness's), 300 games
    python bench/orden_quick.py --seeds 300 "table:4:hammer:-Das Fundament,+Demut"  # the same with one starter edited
    python bench/orden_quick.py --seeds 300 "table:3:all:+Einspruch:hammer:-Gehorsam"  # several (all: every starter)

Each seed is played twice (seats swapped); ± is a 95 % interval over seeds (orden_harness.seed_ci95).
To try a card change, edit games/orden/cards/*.json and run again on the same seeds: the deal is the
same, so the difference is the change's (and the pilot's).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orden_harness as H  # noqa: E402
import orden_recheck as R  # noqa: E402
from games.orden import decks as D  # noqa: E402


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
    if kind == "known":  # a named find (orden_harness.KNOWN_DECKS), against a starter
        label, opp = args
        decks = dict(H.known())
        if f"known:{label}" not in decks:
            raise SystemExit(f"no known deck {label!r} the current cards allow")
        return [Pair(f"{label} vs {opp}", decks[f"known:{label}"], opponent(opp), seeds)]
    if kind == "knownmod":  # a named find edited (orden_harness.known_edited), against a starter
        label, edits, opp = args
        try:
            deck = H.known_edited(label, edits)
        except (ValueError, StopIteration, KeyError, D.DeckError) as e:
            raise SystemExit(f"{label} {edits}: {e!r}")
        return [Pair(f"{label} {edits} vs {opp}", deck, opponent(opp), seeds)]
    if kind == "find":
        rank_v, opp = args
        return [Pair(f"the {rank_v} find vs {opp}", R.hammer_with(rank_v), opponent(opp), seeds)]
    raise SystemExit(f"unknown spec {spec!r}: starters | vs:A:B | drop:PATH:RANK | swap:PATH:OUT:IN:OPP | find:RANKV:OPP"
                     " | mod:PATH:EDITS:OPP | known:LABEL:OPP | knownmod:LABEL:EDITS:OPP | table:N[:PATH:EDITS...]")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=40, help="seeds (two games each; a table: games)")
    a = ap.parse_args(argv)
    seeds = list(range(a.seed, a.seed + a.seeds))
    jobs = [j for spec in a.specs for j in jobs_for(spec, seeds)]  # unknown specs fail before any game
    print(f"data {H.data_version()}, seeds {a.seed}..{a.seed + a.seeds - 1}", flush=True)
    t0 = time.time()
    run = H.Runner(2, "lookahead")
    try:
        for job in jobs:
            if isinstance(job, Table):
                print(job.label + ": ", end="", flush=True)
                H.part_table(run, job.games, H.TABLE_SEED0 + a.seed, (job.players,), job.decks)
                continue
            (w, e, ci), = run.pairings([(job.a, job.b, job.seeds)])
            print(f"{job.label}: {w / max(e, 1) * 100:.1f} % ±{ci:.1f} ({e} games)", flush=True)
    finally:
        run.close()
    print(f"{time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
