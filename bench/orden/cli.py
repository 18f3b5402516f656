"""Der Orden's deck search and balance, one job each:

    bench/run.py orden report [...]       the balance report against the goals: starters, deck search,
                                          verification, known finds, optional ranks, tables, engine time
                                          (harness.py; docs/games/orden.md, "Balance")
    bench/run.py orden compare SPEC...    the card designer's loop: paired comparisons or a table on
                                          common seeds; a trial reaction policy (--policy); how a deck
                                          climbs (--climb)
    bench/run.py orden stalls [...]       the games past a round limit, seat by seat
    bench/run.py orden tables play N|sum FILE
                                          table games for N players, one JSON line per game (a long
                                          run on a busy machine can be summarised at any point)
    bench/run.py orden fingerprint record|check FILE
                                          games, actions and state hashes before a refactoring; exit 1
                                          on any difference after it

``bench/run.py orden JOB --help`` shows a job's options. The library under them: play.py (one game,
paired games, engine time, deck mutation), climb.py, pilots.py.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

JOBS = {"report": "bench.orden.harness", "compare": "bench.orden.compare", "stalls": "bench.orden.stalls", "tables": "bench.orden.tables",
        "fingerprint": "bench.orden.fingerprint"}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in JOBS:
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    import importlib
    result = importlib.import_module(JOBS[argv[0]]).main(argv[1:])
    return result if isinstance(result, int) and argv[0] == "fingerprint" else 0


if __name__ == "__main__":
    sys.exit(main())
