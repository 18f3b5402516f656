"""deploy/ exercised: Debian's nginx, run unprivileged (as nobody) from a temporary prefix with the
very files of deploy/nginx/ (ports and paths rewritten), in front of two nodes — each a
gunicorn (pages, API) and a uvicorn (sockets) — sharing one PostgreSQL and one Redis, as two
machines would (bench/stack.py: a private cluster, Redis and worker). A move made through one
node reaches sockets held by the other; /ws/, /static/, /health/ and /metrics pass nginx as
deploy/README.md says; a node down is routed around. The systemd units are checked by
``systemd-analyze verify``.
"""
from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from stack import PG_BIN, Stack, wait_port  # noqa: E402

from tests.addresses import free_port  # noqa: E402
from tests.drills.test_stack_drills import Player, next_update, seed  # noqa: E402

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
DEPLOY = ROOT / "deploy"

needs_stack = [
    pytest.mark.skipif(not (PG_BIN / "initdb").exists() or not shutil.which("redis-server"),
                       reason="needs PostgreSQL 15 binaries and redis-server (the real-services stack)"),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="runs in the real-services pass only"),
    pytest.mark.skipif(NGINX is None, reason="needs Debian's nginx (`make nginx`, part of `make test`)"),
]


def render_nginx(tmp: Path, listen: int, web: list[int], ws: list[int]) -> Path:
    """nginx.conf for a private prefix, including deploy/nginx/*.conf with our ports and paths."""
    upstreams = (DEPLOY / "nginx" / "upstreams.conf").read_text()
    web_lines = "".join(f"    server 127.0.0.1:{p} max_fails=3 fail_timeout=10s;\n" for p in web)
    ws_lines = "".join(f"    server 127.0.0.1:{p} max_fails=3 fail_timeout=10s;\n" for p in ws)
    upstreams = upstreams.replace(
        "    server 127.0.0.1:8000 max_fails=3 fail_timeout=10s;  # spieltisch-web.service (gunicorn)\n", web_lines)
    upstreams = upstreams.replace(
        "    server 127.0.0.1:8001 max_fails=3 fail_timeout=10s;  # spieltisch-ws.service (uvicorn)\n", ws_lines)
    assert upstreams.count("server 127.0.0.1:") == len(web) + len(ws), "deploy/nginx/upstreams.conf changed shape"
    site = (DEPLOY / "nginx" / "spieltisch.conf").read_text()
    assert "listen 80;" in site and "/srv/spieltisch/" in site, "deploy/nginx/spieltisch.conf changed shape"
    site = site.replace("listen 80;", f"listen 127.0.0.1:{listen};").replace("/srv/spieltisch/", f"{ROOT}/")
    (tmp / "upstreams.conf").write_text(upstreams)
    (tmp / "spieltisch.conf").write_text(site)
    for d in ("logs", "tmp"):
        (tmp / d).mkdir()
    conf = tmp / "nginx.conf"
    conf.write_text(f"""worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/logs/error.log warn;
events {{ worker_connections 512; }}
http {{
    include /etc/nginx/mime.types;
    access_log {tmp}/logs/access.log;
    client_body_temp_path {tmp}/tmp/body;
    proxy_temp_path {tmp}/tmp/proxy;
    fastcgi_temp_path {tmp}/tmp/fastcgi;
    uwsgi_temp_path {tmp}/tmp/uwsgi;
    scgi_temp_path {tmp}/tmp/scgi;
    include {tmp}/upstreams.conf;
    include {tmp}/spieltisch.conf;
}}
""")
    return conf


def test_systemd_units_verify(tmp_path):
    if not shutil.which("systemd-analyze"):
        pytest.skip("needs systemd-analyze")
    for unit in (DEPLOY / "systemd").iterdir():
        (tmp_path / unit.name).write_text(unit.read_text().replace("/srv/spieltisch", str(ROOT)))
    units = sorted(str(p) for p in tmp_path.iterdir())
    assert len(units) == 6
    out = subprocess.run(["systemd-analyze", "verify", "--man=no", *units], capture_output=True, text=True)
    assert out.returncode == 0 and out.stderr.strip() == "", out.stderr
    for name in ("web", "ws", "worker", "mailer", "beat"):
        assert "Restart=always" in (DEPLOY / "systemd" / f"spieltisch-{name}.service").read_text()


@needs_stack[0]
@needs_stack[1]
@needs_stack[2]
def test_nginx_in_front_of_two_nodes():
    a = free_port(2)
    with Stack(workers=1, server="split", ws_workers=1, http_port=a, pg_port=free_port(),
               redis_port=free_port()) as st, tempfile.TemporaryDirectory(prefix="spieltisch-nginx-") as tmp:
        b_web, b_ws, edge = free_port(), free_port(), free_port()
        st.start_node("b", b_web, b_ws)
        st.manage("collectstatic", "--noinput", "-v", "0")
        conf = render_nginx(Path(tmp), edge, web=[a, b_web], ws=[st.ws_port, b_ws])
        nginx_cmd = [NGINX, "-p", tmp, "-e", f"{tmp}/logs/error.log", "-c", str(conf)]
        if os.geteuid() == 0:  # unprivileged, as nobody: the prefix is theirs, the static files readable by all
            for path in [Path(tmp), *Path(tmp).rglob("*")]:
                shutil.chown(path, "nobody")
            nginx_cmd = ["runuser", "-u", "nobody", "--", *nginx_cmd]
        check = subprocess.run([*nginx_cmd, "-t"], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        nginx = subprocess.Popen([*nginx_cmd, "-g", "daemon off;"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            wait_port(edge, proc=nginx)
            result = asyncio.run(drill(st, f"http://127.0.0.1:{edge}", a, b_web, b_ws))
        finally:
            nginx.terminate()
            nginx.wait(10)
        log = (Path(tmp) / "logs" / "access.log").read_text()
    assert "POST /api/matches/" in log  # (static files are not logged; a socket at its end)

    health, static_headers, cross, through_edge, metrics, outside, down = result
    assert health["status"] == "ok", health
    assert static_headers["status"] == 200 and "max-age=604800" in static_headers["cache"], static_headers
    assert static_headers["server"].startswith("nginx")
    assert cross == [1, 1, 2, 2], cross  # every socket, on either node, saw both moves
    assert through_edge == [3, 3, 4, 4], through_edge
    assert metrics["sockets"] >= 2 and metrics["processes"] >= 2, metrics  # both nodes report their sockets
    assert outside == 403
    assert down == [200] * 6, down


async def drill(st: Stack, edge: str, a_web: int, b_web: int, b_ws: int):
    player = Player(st, seed(st, prefix="n")[0])
    cookie = {s: f"sessionid={player.m['seats'][s]['session']}" for s in range(2)}
    mid = player.m["id"]

    async def sock(session, base: str, seat: int):
        return await session.ws_connect(f"{base.replace('http', 'ws', 1)}/ws/matches/{mid}/",
                                        headers={"Origin": "http://127.0.0.1", "Cookie": cookie[seat]})

    async def move_via(session, base: str) -> int:
        player.base = base
        return await player.play(session)

    async with aiohttp.ClientSession() as session:
        deadline = time.monotonic() + 20  # the worker's first heartbeat
        while True:
            async with session.get(f"{edge}/health/") as r:
                health = await r.json()
            if health["status"] == "ok" or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.5)
        async with session.get(f"{edge}/static/frontend/site.css") as r:
            static_headers = {"status": r.status, "cache": r.headers.get("Cache-Control", ""),
                              "server": r.headers.get("Server", "")}
        # Node A holds seat 0's socket, node B seat 1's; moves go through A, then B.
        sockets = [await sock(session, f"http://127.0.0.1:{st.ws_port}", 0),
                   await sock(session, f"http://127.0.0.1:{b_ws}", 1)]
        cross = []
        for web in (a_web, b_web):
            assert await move_via(session, f"http://127.0.0.1:{web}") == 200
            cross += [(await next_update(ws) or {}).get("version") for ws in sockets]
        for ws in sockets:
            await ws.close()
        # Everything through nginx: two sockets (round robin: one per node), two moves.
        sockets = [await sock(session, edge, s) for s in range(2)]
        through_edge = []
        for _ in range(2):
            assert await move_via(session, edge) == 200
            through_edge += [(await next_update(ws) or {}).get("version") for ws in sockets]
        metrics = {}
        deadline = time.monotonic() + 12  # each process reports its count every 5 s
        while time.monotonic() < deadline:
            async with session.get(f"{edge}/metrics") as r:
                assert r.status == 200
                text = await r.text()
            values = {line.split()[0]: float(line.split()[1]) for line in text.splitlines()
                      if line and not line.startswith("#")}
            metrics = {"sockets": values.get("spieltisch_sockets", 0),
                       "processes": values.get("spieltisch_socket_processes", 0)}
            if metrics["sockets"] >= 2 and metrics["processes"] >= 2:
                break
            await asyncio.sleep(1)
        for ws in sockets:
            await ws.close()
    # /metrics from another address (127.0.0.2 is this machine too, but not allowed by nginx).
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))) as other:
        async with other.get(f"{edge}/metrics") as r:
            outside = r.status
    # Node B's web server stops: nginx routes around it.
    st.stop_node("b", "web")
    async with aiohttp.ClientSession() as session:
        down = []
        for _ in range(3):
            async with session.get(f"{edge}/health/") as r:
                down.append(r.status)
            down.append(await move_via(session, edge))
    return health, static_headers, cross, through_edge, metrics, outside, down
