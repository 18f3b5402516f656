"""Failure drills against the real stack (bench/stack.py): a private PostgreSQL cluster,
a private Redis, a Celery worker and uvicorn with two workers, driven over HTTP and websockets
from this process. Each drill stops or kills one part for real and checks what was lost
(nothing) and what users saw. Results and timings: docs/performance.md, "Failure drills".

The shared PostgreSQL/Redis of the test suite are never touched, so these run the same in
both suite modes.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import sys
import time
from pathlib import Path

import aiohttp
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from stack import PG_BIN, Stack  # noqa: E402

from tests.addresses import free_port  # noqa: E402

from games import registry  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not (PG_BIN / "initdb").exists() or not shutil.which("redis-server"),
                       reason="needs PostgreSQL 15 binaries and redis-server (the real-services stack)"),
    # These start their own private services, so the embedded pass would repeat the very same
    # test; they run once, in the real-services pass (CI time is shared by the whole suite).
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="runs in the real-services pass only"),
]


@pytest.fixture(scope="module")
def stack():
    # A short visibility timeout so a task lost with its worker is handed out again within seconds.
    with Stack(workers=2, http_port=free_port(), pg_port=free_port(), redis_port=free_port(),
               extra_env={"CELERY_VISIBILITY_TIMEOUT": "3"}) as st:
        yield st


def seed(stack: Stack, matches: int = 1, players: int = 2, prefix: str = "d") -> list[dict]:
    out = ROOT / "var" / f"drill-seed-{stack.http_port}-{prefix}.json"
    stack_py = ROOT / "bench" / "seed.py"
    import subprocess

    subprocess.run([sys.executable, str(stack_py), "matches", "--matches", str(matches), "--players", str(players),
                    "--prefix", prefix, "--out", str(out)], env=stack.env, cwd=ROOT, check=True, timeout=300)
    data = json.loads(out.read_text())["matches"]
    out.unlink()
    return data


def django(stack: Stack, code: str) -> str:
    return stack.manage("shell", "--no-imports", "-c", code).strip().splitlines()[-1]


class Player:
    """Mirrors one match locally (engine + setup state) and plays random legal moves by HTTP."""

    def __init__(self, stack: Stack, match: dict):
        self.base, self.m = stack.base_url, match
        self.engine = registry.get(match["game"]).engine
        self.state, self.version = match["state"], match["version"]
        self.rng = random.Random(match["id"])

    def next_move(self) -> tuple[int, dict]:
        seat = self.engine.to_move(self.state)[0]
        return seat, self.rng.choice(self.engine.legal_actions(self.state, seat))

    async def post(self, session, seat: int, action: dict, version: int | None = None):
        async with session.post(f"{self.base}/api/matches/{self.m['id']}/actions/",
                                json={"action": action, "version": self.version if version is None else version},
                                headers={"Authorization": f"Token {self.m['seats'][seat]['token']}"}) as r:
            return r.status, await r.text()

    async def play(self, session) -> int:
        seat, action = self.next_move()
        status, body = await self.post(session, seat, action)
        if status == 200:
            self.state = self.engine.apply(self.state, seat, action).state
            self.version += 1
        return status

    async def socket(self, session, seat: int):
        return await session.ws_connect(
            f"{self.base.replace('http', 'ws', 1)}/ws/matches/{self.m['id']}/",
            headers={"Origin": self.base, "Cookie": f"sessionid={self.m['seats'][seat]['session']}"})

    async def get(self, session, path: str = ""):
        async with session.get(f"{self.base}/api/matches/{self.m['id']}/{path}",
                               headers={"Authorization": f"Token {self.m['seats'][0]['token']}"}) as r:
            return r.status, await r.text()


async def next_update(ws, timeout: float = 10.0) -> dict | None:
    """The next match.update frame, or None if the socket closes or stays silent first."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            msg = await ws.receive(timeout=max(0.01, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            return None
        if msg.type != aiohttp.WSMsgType.TEXT:
            return None
        frame = json.loads(msg.data)
        if frame.get("type") == "match.update":
            return frame


def log_is_exact(stack: Stack, match_id: int) -> tuple[int, int, int]:
    """(version, log entries, distinct seqs) of a match, read straight from PostgreSQL."""
    row = stack.psql(f"select m.version, count(l.id), count(distinct l.seq) from matches_match m "
                     f"left join matches_logentry l on l.match_id = m.id where m.id = {match_id} group by m.version")
    return tuple(int(x) for x in row.split("|"))


def test_bench_smoke(stack):
    """bench/run.py's measurements in their smallest form (the CI smoke of the benchmarks):
    every move answered 200 and its frame seen at every other seat; lists answer 200."""
    import run

    p = {**run.SMOKE, "matches": 4, "duration": 2, "sustained_s": 2, "idle": 50, "invitations": 100,
         "my_matches": 10, "requests": 10}
    moves = run.bench_moves(stack, p, False, "sm")["phases"][0]
    assert moves["actions"] > 0 and moves["errors"] == {} and moves["lost_frames"] == 0, moves
    assert moves["round_trip_ms"]["n"] == moves["actions"]
    sustained = run.bench_moves(stack, p, True, "ss")
    assert sustained["actions"] > 0 and sustained["errors"] == {} and sustained["lost_frames"] == 0, sustained
    # Moves over the seat sockets, and the bare move of bench/floor.py, on the same stack.
    for floor in (False, True):
        over_ws = run.bench_moves(stack, {**p, "via": "ws"}, True, f"sw{int(floor)}", floor=floor)
        assert over_ws["actions"] > 0 and over_ws["errors"] == {} and over_ws["lost_frames"] == 0, over_ws
        assert over_ws["round_trip_ms"]["n"] == over_ws["actions"]
    idle = run.bench_idle(stack, p, "si")
    assert idle["sockets"] == 50 and idle["server_rss_after_mib"] > 0
    lists = run.bench_lists(stack, p, "sl")
    for name in ("lobby_page", "my_games_page", "api_invitations", "api_my_matches"):
        assert lists[name]["status"] == [200], (name, lists[name])


def test_idle_sockets_outlive_the_layers_blocking_read(stack):
    """A socket left idle past channels-redis' 5 s BZPOPMIN (redis-py 8 reads with a 5 s
    timeout by default) still gets the next frame."""
    player = Player(stack, seed(stack, prefix="i")[0])

    async def drill():
        async with aiohttp.ClientSession() as session:
            sockets = [await player.socket(session, s) for s in range(2)]
            await asyncio.sleep(12)
            assert await player.play(session) == 200
            frames = [await next_update(ws) for ws in sockets]
            for ws in sockets:
                await ws.close()
            return frames

    frames = asyncio.run(drill())
    assert [f and f["version"] for f in frames] == [1, 1]


def test_hundred_simultaneous_submissions_of_one_move(stack):
    player = Player(stack, seed(stack, prefix="h")[0])
    seat, action = player.next_move()

    async def drill():
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            return await asyncio.gather(*(player.post(session, seat, action, version=0) for _ in range(100)))

    statuses = sorted(status for status, _ in asyncio.run(drill()))
    assert statuses == [200] + [409] * 99, statuses
    assert log_is_exact(stack, player.m["id"]) == (1, 1, 1)


def test_redis_stopped_and_started(stack):
    player = Player(stack, seed(stack, prefix="r")[0])

    async def drill():
        async with aiohttp.ClientSession() as session:
            assert await player.play(session) == 200
            stack.stop_redis()
            try:
                t0 = time.perf_counter()
                status = await player.play(session)  # commits; the push is lost
                during = time.perf_counter() - t0
                read_status, body = await player.get(session)
            finally:
                stack.start_redis()
            await asyncio.sleep(1)
            # After the restart: a new socket sees the next moves. The server's pooled Redis
            # connections died with Redis; the first use of one can fail (a socket refused with
            # 500, or a push lost) before redis-py reconnects, so up to three tries are allowed
            # and counted. Pages fall back to polling meanwhile; moves are never lost.
            tries, after, frame = 0, [], None
            while frame is None and tries < 3:
                tries += 1
                try:
                    ws = await player.socket(session, 1 - player.engine.to_move(player.state)[0])
                except aiohttp.WSServerHandshakeError:
                    await asyncio.sleep(1)
                    continue
                after.append(await player.play(session))
                frame = await next_update(ws, timeout=5)
                await ws.close()
            return status, during, read_status, json.loads(body)["version"], after, frame, tries

    status, during, read_status, version_seen, after, frame, tries = asyncio.run(drill())
    assert status == 200 and during < 2.0, (status, during)
    assert read_status == 200 and version_seen == 2
    assert after and set(after) == {200} and frame is not None, (after, frame, tries)
    assert frame["version"] == 2 + len(after)  # the frame of the latest move
    n = 2 + len(after)
    assert log_is_exact(stack, player.m["id"]) == (n, n, n)


def test_postgres_restarted(stack):
    player = Player(stack, seed(stack, prefix="p")[0])

    async def drill():
        async with aiohttp.ClientSession() as session:
            assert await player.play(session) == 200
            stack.stop_postgres()
            try:
                seat, action = player.next_move()
                during = [(await player.post(session, seat, action))[0], (await player.get(session))[0]]
                async with session.get(f"{stack.base_url}/lobby/") as r:
                    during.append(r.status)
            finally:
                stack.start_postgres()
            after = [await player.play(session), (await player.get(session))[0]]
            return during, after

    during, after = asyncio.run(drill())
    assert during == [503, 503, 503], during
    assert after == [200, 200], after
    assert log_is_exact(stack, player.m["id"]) == (2, 2, 2)


def test_server_restarted_mid_game(stack):
    player = Player(stack, seed(stack, prefix="s")[0])

    async def drill():
        async with aiohttp.ClientSession() as session:
            sockets = [await player.socket(session, s) for s in range(2)]
            assert await player.play(session) == 200
            assert [(await next_update(ws))["version"] for ws in sockets] == [1, 1]
            stack.restart_server()
            closed = [await next_update(ws, timeout=5) is None for ws in sockets]  # the server said goodbye
            # Clients reconnect and catch up by version: the match shows every move made.
            sockets = [await player.socket(session, s) for s in range(2)]
            status, body = await player.get(session)
            caught_up = json.loads(body)["version"]
            assert await player.play(session) == 200
            frames = [await next_update(ws) for ws in sockets]
            for ws in sockets:
                await ws.close()
            return closed, status, caught_up, frames

    closed, status, caught_up, frames = asyncio.run(drill())
    assert all(closed)
    assert status == 200 and caught_up == 1
    assert [f["version"] for f in frames] == [2, 2]
    assert log_is_exact(stack, player.m["id"]) == (2, 2, 2)


def test_worker_killed_mid_task(stack):
    """A match of four bots runs in one play_bots task (one transaction per move); the worker is
    SIGKILLed while it runs. The task is acknowledged late, so a new worker runs it again; bots
    are deterministic per version and every move locks the match row: no move twice, none lost.
    Der Orden (about a thousand moves with these bots): an Alchemist match of 44 moves was over
    before the kill once a bot move took 2 ms."""
    match_id = int(django(stack, (
        "from django.db import transaction\n"
        "from matches.services import start_match\n"
        "with transaction.atomic():\n"
        "    m = start_match(game='orden', entrants=[{'user': None, 'bot': 'heuristic', 'choices': {}}] * 4,"
        " options={}, seed=77)\n"
        "print(m.pk)")))

    def version() -> int:
        return int(stack.psql(f"select version from matches_match where id = {match_id}"))

    deadline = time.monotonic() + 60
    while version() == 0 and time.monotonic() < deadline:
        time.sleep(0.005)
    stack.kill_worker()
    try:
        at_kill = version()
        status = stack.psql(f"select status from matches_match where id = {match_id}")
        assert status == "active", "the bots finished before the kill; the drill needs a longer match"
        time.sleep(1)
        assert version() == at_kill  # nobody moves while no worker runs
    finally:
        stack.start_worker()  # also when an assertion failed: the drills after this one need it
    deadline = time.monotonic() + 120
    while stack.psql(f"select status from matches_match where id = {match_id}") != "finished":
        assert time.monotonic() < deadline, f"the task was not run again (stuck at version {version()})"
        time.sleep(0.2)
    v, entries, distinct = log_is_exact(stack, match_id)
    assert v == entries == distinct and v > at_kill


def test_bot_move_while_redis_is_down(stack):
    """A move that hands the turn to a bot while the broker is down: the move commits and the
    player sees 200; the bot's task could not be queued, and the periodic ``resume_bots``
    (Celery beat, every minute) queues it once Redis is back — run here at once."""
    info = json.loads(django(stack, (
        "import json\n"
        "from django.contrib.auth import get_user_model\n"
        "from django.db import transaction\n"
        "from rest_framework.authtoken.models import Token\n"
        "from matches.services import start_match\n"
        "u = get_user_model().objects.create(username='botfoe', password='!x')\n"
        "with transaction.atomic():\n"
        "    m = start_match(game='kartenduell', entrants=[{'user': u, 'bot': '', 'choices': {}},"
        " {'user': None, 'bot': 'random-legal', 'choices': {}}], options={}, seed=3)\n"
        "print(json.dumps({'id': m.pk, 'token': Token.objects.create(user=u).key}))")))
    match_id, headers = info["id"], {"Authorization": f"Token {info['token']}"}

    def state() -> tuple[int, list]:
        v, to_move = stack.psql(f"select version, to_move from matches_match where id = {match_id}").split("|")
        return int(v), json.loads(to_move)

    deadline = time.monotonic() + 30
    while state()[1] != [0] and time.monotonic() < deadline:  # the bot may open
        time.sleep(0.1)
    version = state()[0]

    async def drill():
        async with aiohttp.ClientSession() as session:
            stack.stop_redis()
            try:
                t0 = time.perf_counter()
                async with session.post(f"{stack.base_url}/api/matches/{match_id}/actions/", headers=headers,
                                        json={"action": {"type": "draw"}, "version": version}) as r:
                    return r.status, time.perf_counter() - t0
            finally:
                time.sleep(2)
                stack.start_redis()

    status, took = asyncio.run(drill())
    assert status == 200 and took < 3.0, (status, took)
    assert state()[0] == version + 1  # committed
    time.sleep(1)
    assert state()[1] == [1]  # the bot's task was lost with the broker ...
    assert django(stack, "from matches.tasks import resume_bots; print(resume_bots(0))") == "1"
    deadline = time.monotonic() + 60
    while state()[1] != [0]:
        assert time.monotonic() < deadline, f"the bot never moved after Redis came back: {state()}"
        time.sleep(0.2)


def test_socket_moves_across_a_postgres_restart():
    """Moves over the seat socket on the production set-up (gunicorn + uvicorn ×2 for the
    sockets, kept database connections): while PostgreSQL is down a move is refused with 503
    and applied never; after the restart each socket-server process fails at most one more move
    (all its move threads reconnect, not one failed move per thread) and then every move is
    applied, exactly once."""
    with Stack(workers=1, server="split", ws_workers=2, http_port=free_port(2), pg_port=free_port(),
               redis_port=free_port()) as st:
        players = [Player(st, m) for m in seed(st, matches=6, prefix="w")]

        async def move(player, sockets):
            seat, action = player.next_move()
            await sockets[seat].send_str(json.dumps({"type": "act", "action": action, "version": player.version}))
            while True:
                answer = json.loads((await sockets[seat].receive(timeout=15)).data)
                if answer.get("type") in ("acted", "refused"):
                    break
            if answer["type"] == "acted":
                player.state = player.engine.apply(player.state, seat, action).state
                player.version += 1
            return answer

        async def drill():
            async with aiohttp.ClientSession() as session:
                sockets = [[await session.ws_connect(
                    f"{st.ws_base}/ws/matches/{p.m['id']}/",
                    headers={"Origin": st.base_url, "Cookie": f"sessionid={p.m['seats'][s]['session']}"})
                    for s in range(2)] for p in players]
                before = []
                for _ in range(3):  # all matches at once: every move thread of both processes gets a connection
                    before += await asyncio.gather(*(move(p, ws) for p, ws in zip(players, sockets)))
                st.stop_postgres()
                try:
                    during = await move(players[0], sockets[0])
                finally:
                    st.start_postgres()
                after = []
                for _ in range(2):
                    for p, ws in zip(players, sockets):
                        after.append(await move(p, ws))
                for pair in sockets:
                    for ws in pair:
                        await ws.close()
                return before, during, after

        before, during, after = asyncio.run(drill())
        assert [a["type"] for a in before] == ["acted"] * len(before)
        assert (during["type"], during["status"], during.get("retry_after", 0) > 0) == ("refused", 503, True)
        refused = [a for a in after if a["type"] == "refused"]
        assert all(a["status"] == 503 for a in refused) and len(refused) <= 2, after  # one per process at most
        # (Which process a socket landed on is up to the kernel: a process's one refusal may come late.)
        for p in players:
            assert log_is_exact(st, p.m["id"]) == (p.version, p.version, p.version)
