#!/usr/bin/env python
"""CPU per action by process group on the real stack: ASGI/WSGI server, Celery worker,
PostgreSQL backends, Redis, the load client. Closed loop (bench/load.py sustained) over N
matches; utime+stime from /proc of each group over a 15 s window after a 6 s warm-up.

    .venv/bin/python bench/cpu_split.py [--matches 100] [--workers 2] [--server uvicorn|split] [--via http|ws] [--floor]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import client, seed  # noqa: E402
from stack import Stack  # noqa: E402

# uvicorn's workers are spawned processes ("spawn_main"), not named after uvicorn
GROUPS = {"server": "uvicorn config.asgi|gunicorn config.wsgi|spawn_main", "celery": "celery -A config worker",
          "postgres": "postgres: .*spieltisch_bench", "redis": "redis-server .*:6390", "client": "bench/load.py"}


def ticks(pattern: str) -> int:
    total = 0
    for pid in subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout.split():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (FileNotFoundError, IndexError):
            pass
    return total


def machine_ticks() -> int:
    return sum(int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:8])


def drain(stack, timeout: float = 300) -> float:
    """Seconds until the worker's queues are empty (Redis list lengths) after the load."""
    import redis

    r = redis.Redis.from_url(stack.redis_url)
    t = time.monotonic()
    while time.monotonic() - t < timeout:
        if not r.llen("celery"):  # the bench worker takes the default queue only (not "notifications")
            time.sleep(1.0)  # the last task taken may still run
            return round(time.monotonic() - t, 1)
        time.sleep(0.5)
    return round(time.monotonic() - t, 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--server", default="uvicorn", choices=["uvicorn", "split"])
    ap.add_argument("--ws-workers", type=int, default=2, help="split: uvicorn processes for the websockets")
    ap.add_argument("--via", default="http", choices=["http", "ws"], help="moves as API POSTs or over the sockets")
    ap.add_argument("--floor", action="store_true", help="the bare move of bench/floor.py instead")
    args = ap.parse_args()
    hz = os.sysconf("SC_CLK_TCK")
    with Stack(workers=args.workers, server=args.server, ws_workers=args.ws_workers) as stack:
        _, path = seed(stack, "matches", "--matches", str(args.matches), "--players", "4", "--prefix", "cs")
        result = {}
        load = threading.Thread(target=lambda: result.update(client(
            "sustained", "--seed-file", str(path), "--base", stack.base_url, "--ws-base", stack.ws_base,
            "--duration", "25", "--via", args.via, *(["--floor"] if args.floor else []))))
        drain(stack)  # the matches' start follow-ups are not part of the moves
        celery_start = ticks(GROUPS["celery"])
        load.start()
        time.sleep(6)
        before, m0, t0 = {k: ticks(p) for k, p in GROUPS.items()}, machine_ticks(), time.monotonic()
        time.sleep(15)
        after, m1, elapsed = {k: ticks(p) for k, p in GROUPS.items()}, machine_ticks(), time.monotonic() - t0
        load.join()
        # The worker may lag behind the moves (its queue grows under load): its share is all its CPU
        # from the start of the load until its queue is empty, over all the run's actions.
        drained_s = drain(stack)
        celery_total = ticks(GROUPS["celery"]) - celery_start
    rate = result["actions_per_s"]
    report = {
        "actions_per_s": rate, "post_ms_p50": result["post_ms"]["p50"], "round_trip_ms_p50": result["round_trip_ms"]["p50"],
        "cores_busy": {k: round((after[k] - before[k]) / hz / elapsed, 2) for k in GROUPS},
        "cpu_ms_per_action": {**{k: round((after[k] - before[k]) / hz * 1000 / (rate * elapsed), 1) for k in GROUPS},
                              "celery": round(celery_total / hz * 1000 / max(1, result["actions"]), 1)},
        "cpu_ms_per_action_total": None, "celery_drain_s": drained_s,
        "machine_cores_busy": round((m1 - m0) / hz / elapsed, 2), "load_average": os.getloadavg()}
    report["cpu_ms_per_action_total"] = round(sum(report["cpu_ms_per_action"].values()), 1)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
