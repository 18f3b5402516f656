"""How long the garbage collector stops a process, per generation (a measuring aid).

With ``GC_STATS_DIR`` set, every server and worker process records each collection's duration
(``gc.callbacks``) and writes ``gc-<pid>.json`` there every few seconds: per generation the
count, total, largest and how many took over 5 ms, the full collections' times (``full``) and the
process's role (``sys.argv``). Used for the steady tail (docs/performance.md); costs two clock
reads per collection, off by default.
"""
from __future__ import annotations

import atexit
import gc
import json
import os
import sys
import time

_started: tuple[float, float] | None = None  # (wall, this thread's CPU) at the start
_stats: dict[int, list] = {}  # generation -> [count, total s, max s, over 5 ms, CPU s]
_full: list[list[float]] = []  # the full collections: [unix time at the end, wall ms], the newest 500
_written_at = 0.0
_pid = None


def _callback(phase: str, info: dict) -> None:
    global _started, _written_at
    now = time.perf_counter()
    if phase == "start":
        _started = (now, time.thread_time())
        return
    if _started is None:
        return
    took = now - _started[0]  # wall: on a loaded machine the process may be preempted meanwhile
    s = _stats.setdefault(info["generation"], [0, 0.0, 0.0, 0, 0.0])
    s[0] += 1
    s[1] += took
    s[2] = max(s[2], took)
    s[3] += took > 0.005
    s[4] += time.thread_time() - _started[1]
    if info["generation"] == 2:  # when, to set beside the slowest moves of a bench phase
        _full.append([round(time.time(), 3), round(took * 1000, 1)])
        del _full[:-500]
    if now - _written_at > 3:
        _written_at = now
        _write()


def _write() -> None:
    directory = os.environ.get("GC_STATS_DIR")
    try:
        with open(os.path.join(directory, f"gc-{os.getpid()}.json"), "w") as f:
            json.dump({"argv": " ".join(sys.argv)[:200], "pid": os.getpid(), "threshold": gc.get_threshold(),
                       "frozen": gc.get_freeze_count(),
                       "generations": {str(g): {"count": c, "total_ms": round(t * 1000, 1),
                                                "max_ms": round(m * 1000, 1), "over_5ms": n,
                                                "cpu_ms": round(cpu * 1000, 1)}
                                       for g, (c, t, m, n, cpu) in sorted(_stats.items())},
                       "full": _full}, f)
    except OSError:
        pass


def install() -> None:
    """Record collections in this process (once per process, after any fork)."""
    global _pid
    if not os.environ.get("GC_STATS_DIR") or _pid == os.getpid():
        return
    _pid = os.getpid()
    _stats.clear()
    _full.clear()
    if _callback not in gc.callbacks:
        gc.callbacks.append(_callback)
        atexit.register(_write)  # the last few seconds too
