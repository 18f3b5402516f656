"""The bench's one front door: ``bench/run.py <command> [options]``; ``bench/run.py <command> --help``.

Platform load, against the real stack: a private PostgreSQL cluster, Redis, a Celery worker and
uvicorn with several workers (bench/stack.py), seeded (bench/seed.py) and driven from a separate
process on loopback (bench/load.py). Results go to bench/results/<what>-<time>.json; figures into
docs/performance.md by hand, with the command.

    .venv/bin/python bench/run.py moves       # 500 4-player matches = 2,000 seat sockets; open loop
                                              # at 100, 200, 300 actions/s, 20 s each
    .venv/bin/python bench/run.py sustained   # the same 500 matches as fast as they go, 15 s
    .venv/bin/python bench/run.py idle        # 5,000 idle sockets: server memory per socket
    .venv/bin/python bench/run.py lists       # 10,000 invitations, 200 matches: page latency
    .venv/bin/python bench/run.py all --smoke # everything tiny (CI: tests/drills/test_stack_drills.py)

Options: --workers N (uvicorn workers, default 2), --server daphne|split, --runs K (median of K),
--via http|ws (moves as API POSTs or over the seat sockets), --floor (also the bare move of
bench/floor.py on the same stack, with our figures as multiples of it: "times_floor").

Every other tool is a command too (``TOOLS`` below; bench/README.md says what each is for); its
printed output is also written to bench/results/<command>[-<job>]-<time>.txt, so two runs can be
diffed.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from stack import PY, Stack  # noqa: E402

RESULTS = Path(os.environ.get("BENCH_RESULTS") or ROOT / "bench" / "results")  # BENCH_RESULTS: elsewhere

# command → (script under bench/, what it measures). The platform load commands above are run.py's own.
TOOLS = {
    # platform: cost and failure
    "chaos": ("chaos.py", "the chaos soak: Redis, worker, socket server and PostgreSQL restarted under play"),
    "cpu-split": ("cpu_split.py", "CPU per action by process group on the real stack (closed loop)"),
    "move-profile": ("move_profile.py", "CPU and SQL statements per move on the server path, in one process"),
    "page-profile": ("page_profile.py", "server time of the lobby and \"my games\" pages and their API lists"),
    "match-page": ("match_page.py", "size and server time of the game page and its live part (--parts: per seat, HTML hashes)"),
    "presence-cost": ("presence_cost.py", "what presence costs a request and a socket"),
    "notifications": ("notifications.py", "10,000 notifications mailed through Celery to a local SMTP sink"),
    "latency": ("move_latency.py", "click to the other player's screen, two browser pages on a served site"),
    "part-swap": ("part_swap.py", "the browser's side of a move: live part to painted table, CPU after a move"),
    # matches over days
    "days": ("days/days_sim.py", "calendar days to finish a match, waits on others, with and without orders"),
    "attention": ("days/attention_sim.py", "a simulated week of turn mails and pushes under the attention rules"),
    # games
    "simulate": ("sim/simulate.py", "the game simulator: any game's bots, ending, start player, length, choices"),
    "alchemist": ("sim/alchemist.py", "Alchemist: games end, length, what the school points change"),
    "orden": ("orden/cli.py", "Der Orden's deck search and balance: report, compare, stalls, fingerprint"),
    # tournaments
    "pairing": ("swiss/pairing.py", "time to pair one Swiss round at 1,000 and 10,000 players"),
    "swiss-peer": ("swiss/peer.py", "our Swiss pairer beside the peer swisspair on the same fields"),
}


def tools_help() -> str:
    return "other commands (each with --help):\n" + "\n".join(
        f"  {name:<14} {what}" for name, (_, what) in TOOLS.items())


class _Tee:
    """Stdout that also goes to a file (line by line: forked workers share it)."""

    def __init__(self, stream, path: Path):
        self.stream, self.file = stream, path.open("w", buffering=1)

    def write(self, text):
        self.file.write(text)
        return self.stream.write(text)

    def flush(self):
        self.file.flush()
        self.stream.flush()

    def __getattr__(self, name):
        return getattr(self.stream, name)


def run_tool(name: str, argv: list[str]) -> int:
    """Run a tool as its own script would run (``__main__``, its folder first on the path)."""
    import runpy

    script = ROOT / "bench" / TOOLS[name][0]
    helping = any(a in ("-h", "--help") for a in argv)
    out = None
    if not helping:
        RESULTS.mkdir(parents=True, exist_ok=True)
        job = f"-{argv[0]}" if name == "orden" and argv and not argv[0].startswith("-") else ""
        out = RESULTS / f"{name}{job}-{time.strftime('%Y%m%d-%H%M%S')}.txt"
        sys.stdout = _Tee(sys.stdout, out)
    sys.argv = [str(script), *argv]
    sys.path.insert(0, str(script.parent))
    code = 0
    try:
        runpy.run_path(str(script), run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        if out is not None:
            sys.stdout.flush()
            sys.stdout.file.close()
            sys.stdout = sys.stdout.stream
            print(f"written {out}", file=sys.stderr)
    return code

FULL = {"matches": 500, "players": 4, "rates": "100,200,300", "duration": 20, "sustained_s": 15,
        "idle": 5000, "invitations": 10_000, "my_matches": 200, "requests": 200, "via": "http"}
SMOKE = {"matches": 6, "players": 2, "rates": "10", "duration": 3, "sustained_s": 3,
         "idle": 100, "invitations": 300, "my_matches": 20, "requests": 20, "via": "http"}


def machine() -> dict:
    return {"cpus": os.cpu_count(), "python": platform.python_version(), "load_before": os.getloadavg(),
            "date": datetime.datetime.now().isoformat(timespec="seconds")}


def seed(stack: Stack, *args: str) -> dict:
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"seed-{stack.http_port}.json"
    subprocess.run([PY, str(ROOT / "bench" / "seed.py"), *args, "--out", str(out)], cwd=ROOT, env=stack.env,
                   check=True, timeout=1200)
    return json.loads(out.read_text()), out


def client(*args: str, timeout: float = 900) -> dict:
    done = subprocess.run([PY, str(ROOT / "bench" / "load.py"), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"load client failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def quiesce(stack: Stack, limit_s: float = 180) -> float:
    """Wait until the worker has taken every queued task (the seed's 500 match starts leave
    their follow-ups and "your turn" mails queued: a burst no steady state has), then 2 s more.
    Returns the seconds waited."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit_s:
        depth = subprocess.run(["redis-cli", "-p", str(stack.redis_port), "-n", "7", "llen", "celery"],
                               capture_output=True, text=True).stdout.strip()
        if depth in ("0", ""):
            break
        time.sleep(1)
    time.sleep(2)
    return round(time.monotonic() - t0, 1)


def bench_moves(stack: Stack, p: dict, sustained: bool, prefix: str, floor: bool = False) -> dict:
    _, path = seed(stack, "matches", "--matches", str(p["matches"]), "--players", str(p["players"]),
                   "--prefix", prefix)
    waited = quiesce(stack) if p.get("quiesce") else None
    common = ["--seed-file", str(path), "--base", stack.base_url, "--ws-base", stack.ws_base, "--via", p["via"],
              *(["--floor"] if floor else [])]
    if sustained:
        out = client("sustained", *common, "--duration", str(p["sustained_s"]))
    else:
        out = client("moves", *common, "--rate", p["rates"], "--duration", str(p["duration"]))
    if waited is not None:
        out["quiesce_s"] = waited
    return out


def against_floor(ours: dict, floor: dict) -> dict:
    """Our figures as multiples of the floor's (throughput: floor / ours, so > 1 means slower)."""
    def ratio(a, b):
        return round(a / b, 2) if a and b else None

    def pair(o, f):
        return {"actions_per_s": ratio(f.get("actions_per_s") or f.get("achieved_rate"),
                                       o.get("actions_per_s") or o.get("achieved_rate")),
                "round_trip_p50": ratio(o["round_trip_ms"]["p50"], f["round_trip_ms"]["p50"]),
                "round_trip_p99": ratio(o["round_trip_ms"]["p99"], f["round_trip_ms"]["p99"])}
    if "phases" in ours:
        return {"phases": [pair(o, f) for o, f in zip(ours["phases"], floor["phases"])]}
    return pair(ours, floor)


def bench_idle(stack: Stack, p: dict, prefix: str) -> dict:
    _, path = seed(stack, "matches", "--matches", "20", "--players", "2", "--prefix", prefix)
    time.sleep(2)
    before = stack.server_rss_kib()
    proc = subprocess.Popen([PY, str(ROOT / "bench" / "load.py"), "idle", "--seed-file", str(path), "--base",
                             stack.base_url, "--ws-base", stack.ws_base, "--sockets", str(p["idle"])], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    opened = json.loads(proc.stdout.readline())
    time.sleep(3)
    after = stack.server_rss_kib()
    proc.stdin.close()
    proc.wait(120)
    return {"sockets": opened["open"], "connect_s": opened["connect_s"], "server_rss_before_mib": round(before / 1024, 1),
            "server_rss_after_mib": round(after / 1024, 1),
            "kib_per_socket": round((after - before) / max(1, opened["open"]), 1),
            "projected_5000_mib": round((after - before) / max(1, opened["open"]) * 5000 / 1024 + before / 1024, 1)}


def bench_lists(stack: Stack, p: dict, prefix: str) -> dict:
    _, path = seed(stack, "lists", "--invitations", str(p["invitations"]), "--my-matches", str(p["my_matches"]),
                   "--prefix", prefix)
    return {"invitations": p["invitations"], "my_matches": p["my_matches"],
            **client("lists", "--seed-file", str(path), "--base", stack.base_url, "--ws-base", stack.ws_base, "--requests", str(p["requests"]))}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in TOOLS:
        sys.exit(run_tool(sys.argv[1], sys.argv[2:]))
    ap = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n")[0],
                                 epilog=tools_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["moves", "sustained", "idle", "lists", "all"],
                    help="platform load on the real stack (see above); or one of the other commands below")
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--server", default="uvicorn", choices=["uvicorn", "daphne", "split"],
                    help="split: gunicorn for HTTP beside uvicorn for websockets")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--ws-workers", type=int, default=2, help="split: uvicorn processes for the websockets")
    ap.add_argument("--http-port", type=int, default=8810)
    ap.add_argument("--pg-port", type=int, default=5440)
    ap.add_argument("--redis-port", type=int, default=6390)
    ap.add_argument("--matches", type=int)
    ap.add_argument("--rates")
    ap.add_argument("--duration", type=float)
    ap.add_argument("--via", choices=["http", "ws"], default="http",
                    help="moves as HTTP POSTs (the API) or over the seat's websocket")
    ap.add_argument("--floor", action="store_true",
                    help="also run the bare move (bench/floor.py) on the same stack and report the ratios")
    ap.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                    help="for the stack's processes, e.g. GC_THRESHOLD=2000,20,50 or GC_STATS_DIR=var/gc")
    ap.add_argument("--worker-nice", type=int, default=0, help="the Celery worker's nice level")
    ap.add_argument("--worker-concurrency", type=int, default=2)
    ap.add_argument("--quiesce", action="store_true",
                    help="after seeding, wait until the worker's queue is empty before measuring")
    ap.add_argument("--out")
    args = ap.parse_args()
    p = dict(SMOKE if args.smoke else FULL)
    for key in ("matches", "rates", "duration", "via"):
        if getattr(args, key) is not None:
            p[key] = getattr(args, key)
    if args.duration is not None:
        p["sustained_s"] = args.duration
    p["quiesce"] = args.quiesce
    RESULTS.mkdir(parents=True, exist_ok=True)
    extra_env = dict(kv.split("=", 1) for kv in args.env)
    report = {"what": args.what, "smoke": args.smoke, "params": p, "workers": args.workers, "server": args.server,
              "env": extra_env, "worker_nice": args.worker_nice, "worker_concurrency": args.worker_concurrency,
              "machine": machine(), "runs": []}
    whats = ["moves", "sustained", "idle", "lists"] if args.what == "all" else [args.what]
    stack = Stack(workers=args.workers, server=args.server, ws_workers=args.ws_workers, http_port=args.http_port,
                  pg_port=args.pg_port, redis_port=args.redis_port, extra_env=extra_env)
    stack.worker_nice, stack.worker_concurrency = args.worker_nice, args.worker_concurrency
    with stack:
        for run in range(args.runs):
            result = {}
            for what in whats:
                prefix = f"r{run}{what[:2]}"
                if what in ("moves", "sustained"):
                    # The bare move first (same stack, its own fresh matches): ours leaves follow-up
                    # work queued for the worker, which would run during a floor run after it.
                    floor = bench_moves(stack, p, what == "sustained", prefix + "f", floor=True) if args.floor else None
                    result[what] = bench_moves(stack, p, what == "sustained", prefix)
                    if floor is not None:
                        result[what]["floor"] = floor
                        result[what]["times_floor"] = against_floor(result[what], floor)
                elif what == "idle":
                    result[what] = bench_idle(stack, p, prefix)
                else:
                    result[what] = bench_lists(stack, p, prefix)
                print(json.dumps({what: result[what]}), flush=True)
            report["runs"].append(result)
    report["machine"]["load_after"] = os.getloadavg()
    out = Path(args.out) if args.out else RESULTS / f"{args.what}{'-smoke' if args.smoke else ''}-{int(time.time())}.json"
    out.write_text(json.dumps(report, indent=1))
    print(f"written {out}", file=sys.stderr)
    if args.runs > 1:
        print(json.dumps(medians(report["runs"]), indent=1))


def medians(runs: list[dict]) -> dict:
    """Median over runs of every numeric leaf."""
    def walk(items):
        first = items[0]
        if isinstance(first, dict):
            return {k: walk([i[k] for i in items if isinstance(i, dict) and k in i]) for k in first}
        if isinstance(first, list):
            return [walk([i[j] for i in items if len(i) > j]) for j in range(len(first))]
        if isinstance(first, (int, float)) and not isinstance(first, bool):
            vals = [i for i in items if isinstance(i, (int, float)) and i is not None]
            return statistics.median(vals) if vals else None
        return first
    return walk(runs)


if __name__ == "__main__":
    main()
