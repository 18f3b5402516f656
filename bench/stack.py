"""Starts the real stack for benchmarks and drills, privately, so it can be stopped and
restarted without touching the shared services other people's tests use:

- PostgreSQL 15: a private cluster (initdb into /tmp, port 5440 by default), database
  ``spieltisch_bench``; max_connections 300 so several server workers fit;
- Redis: a private ``redis-server`` (port 6390 by default), db 7;
- a Celery worker (``-c 2``) and an ASGI server (uvicorn ``--workers N``, or daphne);
  or, with ``server="split"``, gunicorn (WSGI, ``N`` processes × threads) for HTTP beside one
  uvicorn process for the websockets, as a reverse proxy would route them in production
  (``/ws/`` to the ASGI server, the rest to gunicorn); ``ws_base`` is then that server's.

    with Stack(workers=2) as stack:
        stack.base_url, stack.env, stack.restart_server(), stack.stop_redis() ...

Every process is started here and stopped by its own pid.
"""
from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
LOGS = ROOT / "var" / "bench"
WS_PROTOCOL = ["--ws", "web.wsprotocol:Protocol"]  # as deploy/ and `make ws` run the socket servers


def free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def wait_port(port: int, timeout: float = 30.0, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process {proc.args[:3]} exited with {proc.returncode}")
        if not free(port):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout}s")


def _as_postgres(args: list[str], **kw) -> subprocess.CompletedProcess:
    if os.geteuid() == 0:
        args = ["runuser", "-u", "postgres", "--", *args]
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw)


class Stack:
    def __init__(self, *, workers: int = 2, server: str = "uvicorn", http_port: int = 8810, ws_workers: int = 2,
                 pg_port: int = 5440, redis_port: int = 6390, worker: bool = True,
                 database: str = "spieltisch_bench", extra_env: dict | None = None, fresh: bool = True):
        self.workers, self.server, self.http_port, self.ws_workers = workers, server, http_port, ws_workers
        self.pg_port, self.redis_port, self.with_worker = pg_port, redis_port, worker
        self.database, self.fresh = database, fresh
        self.fresh_redis = fresh
        self.pgdata = Path(f"/tmp/spieltisch-bench-pg-{pg_port}")
        self.procs: dict[str, subprocess.Popen] = {}
        self.worker_restarts = 0  # by the supervisor, after the worker died on its own
        self._closing = threading.Event()
        LOGS.mkdir(parents=True, exist_ok=True)
        self.database_url = f"postgres://postgres@127.0.0.1:{pg_port}/{database}"
        self.redis_url = f"redis://127.0.0.1:{redis_port}/7"
        inherited = {k: v for k, v in os.environ.items() if k != "EMAIL_HOST"}  # (extra_env may set one)
        self.env = {**inherited, "DATABASE_URL": self.database_url, "REDIS_URL": self.redis_url,
                    "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}", "DJANGO_DEBUG": "0",
                    "SPIELTISCH_EXTRA_GAMES": "tests.support.minigame",
                    "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "LOG_LEVEL": "ERROR",
                    "BENCH_FLOOR": "1",  # bench/floor.py: the bare move, for comparison
                    # every simulated client comes from 127.0.0.1 (matches/socketcaps.py)
                    "ANONYMOUS_SOCKETS_PER_ADDRESS": "100000", "SOCKETS_PER_USER": "100000",
                    # a production refuses to start without one (config/secretkey.py)
                    "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(64),
                    **(extra_env or {})}
        self.worker_nice = 0  # the worker's nice level (the steady tail: its bursts share the cores)
        self.worker_concurrency = 2
        self.worker_queues = "celery"  # e.g. "celery,notifications": also send mail (bench/chaos.py)
        self.with_beat = False  # Celery beat as production runs it (sweeps, flushes): bench/chaos.py

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def ws_port(self) -> int:
        return self.http_port + 1 if self.server == "split" else self.http_port

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.ws_port}"

    # --- lifecycle -------------------------------------------------------------------------
    def __enter__(self):
        busy = [p for p in {self.http_port, self.ws_port, self.pg_port, self.redis_port} if not free(p)]
        if busy:
            raise RuntimeError(f"ports in use: {busy} (another bench or drill running?)")
        # SIGTERM (e.g. a timeout) must still stop everything this stack started.
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        try:
            self.start_postgres()
            self.start_redis()
            self.migrate()
            if self.with_worker:
                self.start_worker()
                threading.Thread(target=self._supervise_worker, daemon=True).start()
            if self.with_beat:
                self.start_beat()
            self.start_server()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second TERM must not cut the clean-up short
        self._closing.set()
        for name in ("server", "wsserver", "worker", *self.procs):
            self._stop(name)
        self._save_statement_stats()
        self.stop_postgres()
        if free(self.pg_port):
            shutil.rmtree(self.pgdata, ignore_errors=True)  # a private, throw-away cluster

    def _spawn(self, name: str, args: list[str], env: dict | None = None, **kw) -> subprocess.Popen:
        log = open(LOGS / f"{name}.log", "a")
        proc = subprocess.Popen(args, cwd=ROOT, env=env or self.env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True, **kw)
        self.procs[name] = proc
        return proc

    def _stop(self, name: str, sig: int = signal.SIGTERM, timeout: float = 15.0) -> None:
        proc = self.procs.pop(name, None)
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, sig)  # the server's and worker's children go with it
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)

    # --- PostgreSQL --------------------------------------------------------------------------
    def start_postgres(self) -> None:
        if self.fresh and self.pgdata.exists() and free(self.pg_port):
            shutil.rmtree(self.pgdata)
        self.fresh = False  # a restart keeps the data
        if not self.pgdata.exists():
            self.pgdata.mkdir(parents=True)
            shutil.chown(self.pgdata, "postgres", "postgres")
            _as_postgres([str(PG_BIN / "initdb"), "-D", str(self.pgdata), "-A", "trust", "-U", "postgres",
                          "--no-sync", "-E", "UTF8"])
            with open(self.pgdata / "postgresql.conf", "a") as conf:
                conf.write(f"\nport = {self.pg_port}\nlisten_addresses = '127.0.0.1'\n"
                           "unix_socket_directories = '/tmp'\nmax_connections = 300\n"
                           "shared_buffers = 256MB\n")
                if os.environ.get("BENCH_PG_STATEMENTS"):  # what PostgreSQL spends its time on (kept in pgdata)
                    conf.write("shared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track = all\n")
        if free(self.pg_port):
            _as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.pgdata), "-l", str(self.pgdata / "log"),
                          "-w", "start"])
        subprocess.run([str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres",
                        self.database], capture_output=True)  # exists already: fine

    def stop_postgres(self, mode: str = "fast") -> None:
        if self.pgdata.exists() and not free(self.pg_port):
            _as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.pgdata), "-m", mode, "-w", "stop"])

    def restart_postgres(self, down_seconds: float = 0.0) -> None:
        self.stop_postgres()
        time.sleep(down_seconds)
        self.start_postgres()

    def _save_statement_stats(self) -> None:
        """BENCH_PG_STATEMENTS=<file>: the statements PostgreSQL spent most time on, written
        there before the throw-away cluster goes (calls, total and mean ms, rows, the text)."""
        out = os.environ.get("BENCH_PG_STATEMENTS")
        if not out:
            return
        try:
            self.psql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            Path(out).write_text(self.psql(
                "SELECT calls, round(total_exec_time::numeric, 1), round(mean_exec_time::numeric, 3), rows, "
                "left(regexp_replace(query, '\\s+', ' ', 'g'), 200) FROM pg_stat_statements "
                "ORDER BY total_exec_time DESC LIMIT 40") + "\n")
        except Exception as exc:  # a profiling aid: never fail the run for it
            print(f"pg_stat_statements not saved: {exc}", file=sys.stderr)

    def psql(self, sql: str) -> str:
        return subprocess.run([str(PG_BIN / "psql"), "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres",
                               "-d", self.database, "-Atc", sql], check=True, capture_output=True,
                              text=True).stdout.strip()

    # --- Redis ----------------------------------------------------------------------------------
    def start_redis(self) -> None:
        if self.fresh_redis:  # a new stack starts empty: no tasks or frames left by an earlier one
            self.fresh_redis = False
            for old in Path("/tmp/appendonlydir").glob(f"spieltisch-bench-{self.redis_port}.aof*"):
                old.unlink()
        proc = self._spawn("redis", ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                                     "--save", "", "--appendonly", "yes", "--appendfsync", "everysec",
                                     "--dir", "/tmp", "--appendfilename", f"spieltisch-bench-{self.redis_port}.aof",
                                     "--maxclients", "10000"])
        wait_port(self.redis_port, proc=proc)

    def stop_redis(self) -> None:
        # SIGTERM: Redis writes its append-only file, so queued tasks survive the restart.
        self._stop("redis")

    # --- Django ------------------------------------------------------------------------------------
    def manage(self, *args: str, timeout: float = 600) -> str:
        return subprocess.run([PY, "manage.py", *args], cwd=ROOT, env=self.env, check=True, capture_output=True,
                              text=True, timeout=timeout).stdout

    def migrate(self) -> None:
        self.manage("migrate", "--noinput", "-v", "0")

    def start_worker(self, concurrency: int | None = None) -> subprocess.Popen:
        concurrency = concurrency or self.worker_concurrency
        nice = ["nice", "-n", str(self.worker_nice)] if self.worker_nice else []
        return self._spawn("worker", [*nice, PY, "-m", "celery", "-A", "config", "worker", "-l", "warning",
                                      "-c", str(concurrency), "--without-gossip", "--without-mingle",
                                      "-Q", self.worker_queues,
                                      "-n", f"bench-{os.getpid()}@%h"])

    def start_beat(self) -> subprocess.Popen:
        schedule = Path(f"/tmp/spieltisch-bench-beat-{self.redis_port}")
        return self._spawn("beat", [PY, "-m", "celery", "-A", "config", "beat", "-l", "warning",
                                    "-s", str(schedule)])

    def _supervise_worker(self) -> None:
        """Restart the worker when it exits on its own, as systemd's Restart=always would in a
        deployment: Celery's worker can die with "Unrecoverable error" when the Redis broker
        goes away in the middle of its work (seen in the Redis drills). A worker stopped or
        killed through this class is not in ``procs`` and is left alone."""
        while not self._closing.wait(0.5):
            proc = self.procs.get("worker")
            if proc is not None and proc.poll() is not None and not self._closing.is_set():
                self.worker_restarts += 1
                self.start_worker()

    def kill_worker(self) -> None:
        self._stop("worker", signal.SIGKILL)

    def start_server(self) -> subprocess.Popen:
        uvicorn = [PY, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--no-access-log",
                   "--log-level", "warning", "--backlog", "4096", "--ws-ping-interval", "0"] + WS_PROTOCOL
        if self.server == "daphne":
            args = [PY, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.http_port), "config.asgi:application"]
        elif self.server == "split":
            # Threads live as long as the process: each keeps its database connection.
            args = [PY, "-m", "gunicorn", "config.wsgi:application", "-b", f"127.0.0.1:{self.http_port}",
                    "-w", str(self.workers), "-k", "web.shedding.QueueTimedWorker", "--threads", "4",
                    "--backlog", "4096",  # (the worker class: gunicorn's gthread, API requests shed when late)
                    # Keep-alive longer than a client's idle pool connection: with gunicorn's 2 s the
                    # server closed connections the client was just reusing (ClientOSError).
                    "--keep-alive", "75",
                    "--log-level", "warning"]
            # The socket server's database work (socket connects, socket moves) runs on one thread
            # per process (channels' database_sync_to_async): one kept connection, not one per move.
            self.start_ws_server()
        else:
            args = uvicorn + ["--port", str(self.http_port), "--workers", str(self.workers)]
        env = {**self.env, "DB_CONN_MAX_AGE": "60"} if self.server == "split" else self.env
        proc = self._spawn("server", args, env=env)
        wait_port(self.http_port, timeout=60, proc=proc)
        return proc

    def start_node(self, name: str, web_port: int, ws_port: int, web_workers: int = 1,
                   ws_workers: int = 1) -> None:
        """Another node's server processes (gunicorn for HTTP, uvicorn for the sockets) on the
        same PostgreSQL and Redis, as a second machine behind the reverse proxy would run them
        (tests/drills/test_nginx_two_nodes.py). Stopped with ``stop_node(name)``."""
        env = {**self.env, "DB_CONN_MAX_AGE": "60"}
        web = self._spawn(f"{name}-web", [PY, "-m", "gunicorn", "config.wsgi:application", "-b",
                                          f"127.0.0.1:{web_port}", "-w", str(web_workers), "-k",
                                          "web.shedding.QueueTimedWorker", "--threads", "4", "--keep-alive", "75",
                                          "--log-level", "warning"], env=env)
        ws = self._spawn(f"{name}-ws", [PY, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                                        "--port", str(ws_port), "--workers", str(ws_workers), "--no-access-log",
                                        "--log-level", "warning", "--ws-ping-interval", "0", *WS_PROTOCOL], env=env)
        wait_port(web_port, timeout=60, proc=web)
        wait_port(ws_port, timeout=60, proc=ws)

    def stop_node(self, name: str, part: str | None = None) -> None:
        for p in ([part] if part else ["web", "ws"]):
            self._stop(f"{name}-{p}")

    def start_ws_server(self) -> subprocess.Popen:
        """The split stack's socket server (uvicorn); ``restart_ws_server`` restarts it alone."""
        ws = subprocess.Popen([PY, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--no-access-log",
                               "--log-level", "warning", "--backlog", "4096", "--ws-ping-interval", "0",
                               "--port", str(self.ws_port), "--workers", str(self.ws_workers), *WS_PROTOCOL], cwd=ROOT,
                              env={**self.env, "DB_CONN_MAX_AGE": "60"},
                              stdout=open(LOGS / "wsserver.log", "a"), stderr=subprocess.STDOUT,
                              start_new_session=True)
        self.procs["wsserver"] = ws
        wait_port(self.ws_port, timeout=60, proc=ws)
        return ws

    def restart_ws_server(self) -> None:
        self._stop("wsserver")
        # Its worker process may hold the listening socket a moment longer than the parent
        # lives; a new server started meanwhile fails to bind ("address already in use").
        deadline = time.monotonic() + 15
        while not free(self.ws_port) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.start_ws_server()

    def stop_server(self, sig: int = signal.SIGTERM) -> None:
        self._stop("server", sig)
        self._stop("wsserver", sig)

    def restart_server(self) -> None:
        self.stop_server()
        self.start_server()

    def server_rss_kib(self) -> int:
        """Resident memory of the (websocket) server and all its worker processes."""
        proc = self.procs["wsserver" if self.server == "split" else "server"]
        pids = [proc.pid] + [int(p) for p in subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True,
                                                               text=True).stdout.split()]
        total = 0
        for pid in pids:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            except FileNotFoundError:
                pass
        return total
