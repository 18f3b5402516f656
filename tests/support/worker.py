"""Starts a real Celery worker (a separate process) against the test database."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
# One worker per test process (the real-services pass runs two: tests/support/xdist_services.py).
NODE_NAME = f"test-{os.getpid()}@{socket.gethostname()}"
LOG_NAME = f"test-celery-worker-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"


def test_database_url() -> str:
    s = connection.settings_dict
    host, port = s.get("HOST") or "127.0.0.1", s.get("PORT") or 5432
    auth = s.get("USER") or "postgres"
    if s.get("PASSWORD"):
        auth += f":{s['PASSWORD']}"
    return f"postgres://{auth}@{host}:{port}/{s['NAME']}"


def start_worker(concurrency: int = 2):
    if not settings.REDIS_URL:
        return None
    from config.celery import app

    app.control.purge()  # tasks left over from an earlier, interrupted run
    env = {**os.environ, "DATABASE_URL": test_database_url(), "REDIS_URL": settings.REDIS_URL,
           "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}",
           "SPIELTISCH_EXTRA_GAMES": "tests.support.minigame"}
    log = open(ROOT / "var" / LOG_NAME, "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "info", "-c", str(concurrency),
         "--without-gossip", "--without-mingle", "-n", NODE_NAME],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"Celery worker exited ({proc.returncode}); see var/{LOG_NAME}")
        if app.control.ping(timeout=0.5):
            return proc
    proc.kill()
    raise RuntimeError("Celery worker did not answer within 60 s")


def wait_idle(timeout: float = 30.0) -> None:
    """Until the test worker runs and holds no task: a test's leftover task (a mail sent after a
    move, say) must not touch the database while the next test flushes it. Idle twice in a row,
    a moment apart: a task queues its successor when it commits, just before it ends."""
    if not settings.REDIS_URL:
        return
    from config.celery import app
    from matches import followups

    followups.flush()  # follow-ups still waiting in this process for their batch go out first
    deadline = time.monotonic() + timeout
    idle_seen = 0
    while time.monotonic() < deadline:
        # Asked by name and for one reply: a broadcast waits out its whole timeout for more workers.
        inspect = app.control.inspect(timeout=1.0, destination=[NODE_NAME], limit=1)
        replies = (inspect.active(), inspect.reserved(), inspect.scheduled())
        answered = all(reply is not None for reply in replies)  # no answer is no proof of idleness
        busy = [tasks for reply in replies for tasks in (reply or {}).values()]
        queued = app.connection_for_write().default_channel.client.llen("celery")
        idle_seen = idle_seen + 1 if answered and not any(busy) and not queued else 0
        if idle_seen == 2:
            return
        time.sleep(0.2)
    raise AssertionError(f"the Celery worker was still busy after {timeout}s")
