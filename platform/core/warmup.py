"""Work a server process does once at start-up rather than in its first requests."""
import gc
import os
import sys


def import_urls() -> None:
    """Import every URL module (and the views behind them) now: left to the first requests, a
    burst of them queued behind the import lock for seconds (py-spy, docs/performance.md, "Measured choices")."""
    from django.urls import get_resolver

    get_resolver().url_patterns


def load_games() -> None:
    """Import the game plugins now: the registry loads them on first use, which was the first
    move of each socket server process (17 of its 31 ms; the first moves of a run were the slowest
    of the phase: docs/performance.md, "Measured choices")."""
    from games import registry

    registry.plugins()


# The socket servers (the ASGI processes: they hold the sockets) collect the oldest generation
# 100x less often than Python's default (700, 10, 10). A full pass walks every socket's objects:
# ~100 ms of CPU each with 1,000 sockets a process, 9-10 of them a process in a bench run, and
# each one stalled every move that process handled meanwhile (the bunches of slow moves of the
# steady tail, docs/performance.md). Young collections are unchanged; GC_THRESHOLD overrides.
SOCKET_SERVER_GC = (700, 10, 1000)


def freeze_heap(threshold: tuple[int, int, int] | None = None) -> None:
    """Move everything loaded so far (Django, the apps, the games: ~150,000 objects) out of the
    garbage collector's sight. Its full passes walk every tracked object; with this heap one
    took 100–250 ms on the 2-core box, every few list requests — the p95 of the list endpoints
    (docs/performance.md, "Measured choices"). Frozen objects are never collected, so this runs once,
    after a collection, at start-up (in each server process, after any fork). ``threshold``:
    this kind of process's collector thresholds (``tune_gc``)."""
    gc.collect()
    gc.freeze()
    tune_gc(threshold)


def tune_gc(threshold: tuple[int, int, int] | None = None) -> None:
    """``GC_THRESHOLD=a,b,c`` (gc.set_threshold) for this process (else ``threshold``, else
    Python's default), the collector's pauses
    recorded with ``GC_STATS_DIR`` (core/gcstats.py), and ``SWITCH_INTERVAL`` (seconds,
    sys.setswitchinterval): how long a busy thread keeps the GIL from the others. A socket
    server's move threads hold it against the event loop that reads and writes the sockets; the
    default 5 ms is a candidate for the tail (docs/performance.md, "Steady tail")."""
    from core import gcstats

    setting = os.environ.get("GC_THRESHOLD")
    if setting:
        threshold = tuple(int(x) for x in setting.split(","))
    if threshold:
        gc.set_threshold(*threshold)
    switch = os.environ.get("SWITCH_INTERVAL")
    if switch:
        sys.setswitchinterval(float(switch))
    gcstats.install()
