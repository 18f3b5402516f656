"""The load client: a separate process on loopback (asyncio, aiohttp, uvloop). It does not
import Django; it mirrors every match locally with the pure game engine (the seeder hands it
each match's setup state), so it picks legal moves without extra requests.

    python bench/load.py moves --seed-file F --base URL --rate 300 --duration 20
        open loop: each match moves at random times (Poisson, rate/matches per match); a move's
        round trip = POST sent -> its frame (the new version) received on the sockets of every
        other seat. Reports POST and round-trip p50/p95/p99, achieved rate, errors, lost frames.
    python bench/load.py sustained --seed-file F --base URL --duration 15 [--concurrency N]
        closed loop: N matches move as fast as their round trips allow; actions/s and errors.
    python bench/load.py idle --seed-file F --base URL --sockets 5000
        opens idle spectator sockets and holds them; prints when all are open (the runner
        measures the server's memory meanwhile).
    python bench/load.py lists --seed-file F --base URL --requests 200
        latency of the lobby and "my games" pages and their API twins.

Output: one JSON object on stdout.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402  (pure engines; no Django needed)


WS_BASE = ""  # --ws-base
FLOOR = False  # --floor: moves go to the bare move of bench/floor.py instead of the real one


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def summary_ms(values: list[float]) -> dict:
    ms = [v * 1000 for v in values]
    return {"n": len(ms), "p50": _r(pct(ms, 50)), "p95": _r(pct(ms, 95)), "p99": _r(pct(ms, 99)),
            "max": _r(max(ms) if ms else None), "mean": _r(statistics.fmean(ms) if ms else None)}


def _r(x):
    return None if x is None else round(x, 2)


class Mirror:
    """One match as the client knows it: full state (from the seed), version, seat sockets."""

    def __init__(self, data: dict):
        self.id = data["id"]
        self.engine = registry.get(data["game"]).engine
        self.state, self.version = data["state"], data["version"]
        self.seats = data["seats"]
        self.waiting: dict[int, tuple[set[int], asyncio.Future]] = {}
        self.over = self.engine.outcome(self.state) is not None
        self.sockets: dict[int, object] = {}  # seat -> its websocket (moves --via ws go through it)
        self.answers: dict[str, asyncio.Future] = {}  # ref -> the socket's answer to that move

    def frame(self, seat: int, version: int, now: float) -> None:
        entry = self.waiting.get(version)
        if entry is None:
            return
        pending, fut = entry
        pending.discard(seat)
        if not pending and not fut.done():
            fut.set_result(now)


async def open_sockets(session, base: str, mirrors: list[Mirror], per_match_seats: bool = True,
                       parallel: int = 100) -> list:
    # Sockets get their own session: each holds a connection, which must not count against
    # the HTTP keep-alive pool's limit.
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    ws_base = WS_BASE or base.replace("http", "ws", 1)
    sem = asyncio.Semaphore(parallel)
    sockets = []

    async def one(m: Mirror, seat: int):
        async with sem:
            route = "bench-floor" if FLOOR else "matches"
            ws = await session.ws_connect(f"{ws_base}/ws/{route}/{m.id}/", headers={
                "Origin": base, "Cookie": f"sessionid={m.seats[seat]['session']}"}, heartbeat=None,
                autoping=True, max_msg_size=0)
        sockets.append(ws)
        m.sockets[seat] = ws
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            now = time.perf_counter()
            # Frames are small JSON; only the type and version matter here.
            data = json.loads(msg.data)
            kind = data.get("type")
            if kind == "match.update":
                m.frame(seat, data["version"], now)
            elif kind in ("acted", "refused"):
                fut = m.answers.pop(str(data.get("ref")), None)
                if fut is not None and not fut.done():
                    fut.set_result(data)

    tasks = [asyncio.create_task(one(m, s)) for m in mirrors for s in range(len(m.seats))]
    deadline = time.monotonic() + 120
    problem = None
    while len(sockets) < len(tasks) and time.monotonic() < deadline:
        failed = [t for t in tasks if t.done() and not t.cancelled() and t.exception()]
        if failed:
            problem = f"socket failed after {len(sockets)} connected: {failed[0].exception()!r}"
            break
        await asyncio.sleep(0.05)
    if problem is None and len(sockets) < len(tasks):
        problem = f"only {len(sockets)} of {len(tasks)} sockets connected"
    if problem:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await session.close()
        raise RuntimeError(problem)
    tasks.append(asyncio.create_task(_close_later(session)))
    return tasks


async def _close_later(session):
    try:
        await asyncio.Event().wait()
    finally:
        await session.close()


SHED = (429, 503)  # the server sheds load: back off for Retry-After, then send the move again
MAX_SHED_RETRIES = 200  # a real client keeps trying; give up only on a server that never recovers


async def _post(session, base: str, m: Mirror, seat: int, action: dict) -> tuple[int, float]:
    """One try over HTTP: (status, retry_after)."""
    url = f"{base}/bench/floor/{m.id}/" if FLOOR else f"{base}/api/matches/{m.id}/actions/"
    async with session.post(url, json={"action": action, "version": m.version, "seat": seat},
                            headers={"Authorization": f"Token {m.seats[seat]['token']}"}) as r:
        await r.read()
        return r.status, float(r.headers.get("Retry-After") or 1)


async def _send_ws(m: Mirror, seat: int, action: dict, timeout: float) -> tuple[int, float]:
    """One try over the seat's socket: (status, retry_after); 200 for "acted"."""
    ref = f"{m.id}.{m.version}.{random.getrandbits(32)}"
    fut = asyncio.get_running_loop().create_future()
    m.answers[ref] = fut
    await m.sockets[seat].send_str(json.dumps({"type": "act", "action": action, "version": m.version, "ref": ref,
                                               "seat": seat}))
    try:
        answer = await asyncio.wait_for(fut, timeout)
    finally:
        m.answers.pop(ref, None)
    if answer["type"] == "acted":
        return 200, 0.0
    return int(answer.get("status") or 500), float(answer.get("retry_after") or 1)


async def move(session, base: str, m: Mirror, rng: random.Random, stats: dict, frame_timeout: float,
               via: str = "http", request_timeout: float = 15):
    seat = m.engine.to_move(m.state)[0]
    action = rng.choice(m.engine.legal_actions(m.state, seat))
    expected = m.version + 1
    fut = asyncio.get_running_loop().create_future()
    m.waiting[expected] = ({s for s in range(len(m.seats)) if s != seat}, fut)
    t0 = time.perf_counter()
    try:
        for _ in range(MAX_SHED_RETRIES):
            t_try = time.perf_counter()
            if via == "ws":
                status, retry_after = await _send_ws(m, seat, action, request_timeout)
            else:
                status, retry_after = await _post(session, base, m, seat, action)
            if status not in SHED:
                break
            stats["shed"] += 1
            await asyncio.sleep(retry_after * (0.5 + random.random()))  # jitter: not all back at once
    except (aiohttp.ClientError, asyncio.TimeoutError, ConnectionError) as exc:
        stats["errors"][type(exc).__name__] = stats["errors"].get(type(exc).__name__, 0) + 1
        m.waiting.pop(expected, None)
        m.over = True  # unknown outcome: stop moving this match
        return False
    t_post = time.perf_counter() - t_try
    if status != 200:
        stats["errors"][str(status)] = stats["errors"].get(str(status), 0) + 1
        m.waiting.pop(expected, None)
        m.over = True
        return False
    stats["post"].append(t_post)
    m.state = m.engine.apply(m.state, seat, action).state
    m.version = expected
    m.over = m.engine.outcome(m.state) is not None
    try:
        arrived = await asyncio.wait_for(asyncio.shield(fut), frame_timeout)
        stats["rtt"].append(arrived - t0)
        stats["rtt_at"].append(t0)
    except asyncio.TimeoutError:
        stats["lost_frames"] += 1
    finally:
        m.waiting.pop(expected, None)
    stats["done"] += 1
    return True


class ClientPauses:
    """The client's own garbage-collector pauses (gc.callbacks): a pause of the client delays the
    frames it reads and bunches the moves it was due to start, so it shows in the round trips."""

    def __init__(self):
        self.pauses: list[tuple[int, float]] = []
        self._t = 0.0
        gc.callbacks.append(self._cb)

    def _cb(self, phase, info):
        if phase == "start":
            self._t = time.perf_counter()
        else:
            self.pauses.append((info["generation"], time.perf_counter() - self._t))

    def take(self) -> dict:
        """Pauses since the last take: count and longest per generation, ms."""
        out = {}
        for gen, s in self.pauses:
            n, longest = out.get(gen, (0, 0.0))
            out[gen] = (n + 1, max(longest, s))
        self.pauses = []
        return {f"gen{g}": {"n": n, "max_ms": round(m * 1000, 1)} for g, (n, m) in sorted(out.items())}


PAUSES = ClientPauses()


def client_gc() -> str:
    """``BENCH_CLIENT_GC``: "off" (default: frozen heap, no collections while measuring), "frozen"
    (the heap frozen only) or "plain" (the client without those changes), for before/after runs."""
    return os.environ.get("BENCH_CLIENT_GC") or "off"


def quiet_client_heap() -> None:
    """Once the sockets are open: the mirrors, sockets and sessions are long-lived, so they leave
    the collector's walks (gc.freeze). Without it, the client's full collections walked them all and
    paused its event loop 70–140 ms a few times per phase: the frames read late and the moves due in
    that time started in one bunch, which the server then queued (docs/performance.md, "Steady tail")."""
    if client_gc() != "plain":
        gc.collect()
        gc.freeze()
    PAUSES.take()


class NoClientCollections:
    """While a phase is measured the client does not collect at all (its young collections still
    paused it 10–20 ms now and then); the garbage of one phase is collected after it, unmeasured."""

    def __enter__(self):
        self.on = client_gc() == "off" and gc.isenabled()
        if self.on:
            gc.disable()

    def __exit__(self, *exc):
        if self.on:
            gc.enable()
            gc.collect()


def new_stats() -> dict:
    return {"post": [], "rtt": [], "rtt_at": [], "errors": {}, "lost_frames": 0, "done": 0, "shed": 0}


def cpu_seconds() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


async def cmd_moves(args, mirrors: list[Mirror]) -> dict:
    connector = aiohttp.TCPConnector(limit=args.connections)
    timeout = aiohttp.ClientTimeout(total=args.request_timeout)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        t = time.perf_counter()
        readers = await open_sockets(session, args.base, mirrors)
        connect_s = time.perf_counter() - t
        quiet_client_heap()
        await asyncio.sleep(1.0)
        results = {"sockets": len(readers) - 1, "matches": len(mirrors), "connect_s": round(connect_s, 2),
                   "client_gc": client_gc(), "phases": []}
        rates = [float(r) for r in str(args.rate).split(",")]
        for rate in rates:
            results["phases"].append(await phase_open_loop(session, args, mirrors, rate))
        for task in readers:
            task.cancel()
    return results


async def phase_open_loop(session, args, mirrors: list[Mirror], rate: float) -> dict:
    stats = new_stats()
    rng = random.Random(int(rate * 1000))
    per_match = rate / len(mirrors)
    start = time.perf_counter()
    end = start + args.duration
    cpu0 = cpu_seconds()
    lag = []

    async def runner(m: Mirror):
        at = start + rng.expovariate(per_match)
        while not m.over:
            if at >= end:
                return
            delay = at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            else:
                lag.append(-delay)
            await move(session, args.base, m, rng, stats, args.frame_timeout, args.via, args.request_timeout)
            at += rng.expovariate(per_match)

    with NoClientCollections():
        await asyncio.gather(*(runner(m) for m in mirrors))
    elapsed = time.perf_counter() - start
    active_left = sum(1 for m in mirrors if not m.over)
    return {"mode": "open", "target_rate": rate, "duration_s": round(elapsed, 2),
            "started_at": round(time.time() - elapsed, 3),  # unix time: beside core/gcstats.py's "full"
            "achieved_rate": round(stats["done"] / elapsed, 1), "actions": stats["done"],
            "post_ms": summary_ms(stats["post"]), "round_trip_ms": summary_ms(stats["rtt"]),
            "errors": stats["errors"], "lost_frames": stats["lost_frames"], "active_matches_left": active_left,
            "shed": stats["shed"], "via": args.via,
            "late_starts_over_100ms": sum(1 for x in lag if x > 0.1),
            # where the tail lies in the phase: the ten slowest round trips, [s after the start, ms]
            "slowest": sorted(([round(at - start, 2), round(rtt * 1000, 1)] for rtt, at in
                               zip(stats["rtt"], stats["rtt_at"])), key=lambda x: -x[1])[:10],
            **({"raw": [[round(at - start, 4), round(rtt * 1000, 2)] for rtt, at in zip(stats["rtt"], stats["rtt_at"])],
                "lag_max_ms": round(max(lag, default=0) * 1000, 1)} if os.environ.get("BENCH_RAW") else {}),
            "client_cpu_share": round((cpu_seconds() - cpu0) / elapsed, 2),
            "client_gc_pauses": PAUSES.take()}


async def cmd_sustained(args, mirrors: list[Mirror]) -> dict:
    connector = aiohttp.TCPConnector(limit=args.connections)
    timeout = aiohttp.ClientTimeout(total=args.request_timeout)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        readers = await open_sockets(session, args.base, mirrors)
        quiet_client_heap()
        await asyncio.sleep(1.0)
        stats = new_stats()
        rng = random.Random(7)
        start = time.perf_counter()
        end = start + args.duration
        cpu0 = cpu_seconds()
        active = mirrors[:args.concurrency] if args.concurrency else mirrors

        async def runner(m: Mirror):
            while not m.over and time.perf_counter() < end:
                await move(session, args.base, m, rng, stats, args.frame_timeout, args.via, args.request_timeout)

        with NoClientCollections():
            await asyncio.gather(*(runner(m) for m in active))
        elapsed = time.perf_counter() - start
        for task in readers:
            task.cancel()
    return {"mode": "closed", "matches_moving": len(active), "sockets": len(readers) - 1,
            "duration_s": round(elapsed, 2), "started_at": round(time.time() - elapsed, 3), "actions": stats["done"],
            "actions_per_s": round(stats["done"] / elapsed, 1), "post_ms": summary_ms(stats["post"]),
            "round_trip_ms": summary_ms(stats["rtt"]), "errors": stats["errors"],
            "lost_frames": stats["lost_frames"], "finished_matches": sum(1 for m in active if m.over),
            "shed": stats["shed"], "via": args.via,
            "client_cpu_share": round((cpu_seconds() - cpu0) / elapsed, 2),
            "client_gc": client_gc(), "client_gc_pauses": PAUSES.take()}


async def cmd_idle(args, mirrors: list[Mirror]) -> dict:
    """Spectator sockets (anonymous, public matches), opened then held until stdin closes."""
    ws_base = WS_BASE or args.base.replace("http", "ws", 1)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        sem = asyncio.Semaphore(100)
        sockets = []

        async def one(i: int):
            async with sem:
                ws = await session.ws_connect(f"{ws_base}/ws/matches/{mirrors[i % len(mirrors)].id}/",
                                              headers={"Origin": args.base}, heartbeat=None)
            sockets.append(ws)

        t = time.perf_counter()
        await asyncio.gather(*(one(i) for i in range(args.sockets)))
        print(json.dumps({"open": len(sockets), "connect_s": round(time.perf_counter() - t, 2)}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # hold until told
        for ws in sockets:
            await ws.close()
    return {"closed": len(sockets)}


async def cmd_lists(args, data: dict) -> dict:
    lister = data["lister"]
    targets = {
        "lobby_page": ("/lobby/", {"Cookie": f"sessionid={lister['session']}"}),
        "my_games_page": ("/my-games/", {"Cookie": f"sessionid={lister['session']}"}),
        "api_invitations": ("/api/invitations/", {"Authorization": f"Token {lister['token']}"}),
        "api_my_matches": ("/api/matches/?mine=1", {"Authorization": f"Token {lister['token']}"}),
    }
    out = {}
    async with aiohttp.ClientSession() as session:
        for name, (path, headers) in targets.items():
            times, sizes, statuses = [], [], set()
            for i in range(args.requests + 5):
                t0 = time.perf_counter()
                async with session.get(args.base + path, headers=headers, allow_redirects=False) as r:
                    body = await r.read()
                    statuses.add(r.status)
                if i >= 5:  # warm-up
                    times.append(time.perf_counter() - t0)
                    sizes.append(len(body))
            out[name] = {**summary_ms(times), "status": sorted(statuses), "bytes": sizes[-1]}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["moves", "sustained", "idle", "lists"])
    ap.add_argument("--seed-file", required=True)
    ap.add_argument("--base", default="http://127.0.0.1:8810")
    ap.add_argument("--ws-base", default="", help="websockets elsewhere (a split stack); default: --base")
    ap.add_argument("--rate", default="300", help="actions/s; several comma-separated = several phases")
    ap.add_argument("--duration", type=float, default=20)
    ap.add_argument("--concurrency", type=int, default=0)
    ap.add_argument("--connections", type=int, default=200, help="HTTP keep-alive pool of the client")
    ap.add_argument("--frame-timeout", type=float, default=10)
    ap.add_argument("--request-timeout", type=float, default=15, help="a POST slower than this counts as an error")
    ap.add_argument("--sockets", type=int, default=5000)
    ap.add_argument("--floor", action="store_true", help="the bare move of bench/floor.py (same stack)")
    ap.add_argument("--via", choices=["http", "ws"], default="http",
                    help="moves as POST /api/matches/{id}/actions/ or over the seat's socket")
    ap.add_argument("--requests", type=int, default=200)
    args = ap.parse_args()
    global WS_BASE, FLOOR
    WS_BASE = args.ws_base.rstrip("/")
    FLOOR = args.floor
    try:
        import uvloop
        factory = uvloop.new_event_loop
    except ImportError:
        factory = None
    data = json.loads(Path(args.seed_file).read_text())
    with asyncio.Runner(loop_factory=factory) as runner:
        if args.cmd == "lists":
            result = runner.run(cmd_lists(args, data))
        else:
            mirrors = [Mirror(m) for m in data["matches"]]
            command = {"moves": cmd_moves, "sustained": cmd_sustained, "idle": cmd_idle}[args.cmd]
            result = runner.run(command(args, mirrors))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
