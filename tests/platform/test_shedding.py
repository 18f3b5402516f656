"""HTTP load shedding (web/shedding.py) under a real gunicorn: an API request that waited
longer than the budget for a thread is answered 503 + Retry-After at once; pages wait."""
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest

from tests.addresses import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def gunicorn():
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "tests.support.slow_wsgi:application", "-b", f"127.0.0.1:{port}",
         "-w", "1", "-k", "web.shedding.QueueTimedWorker", "--threads", "1", "--log-level", "warning"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}"})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(10)


def _get(url):
    started = time.monotonic()
    try:
        with urlopen(url, timeout=20) as r:
            return r.status, r.headers.get("Retry-After"), r.read(), time.monotonic() - started
    except HTTPError as e:
        return e.code, e.headers.get("Retry-After"), e.read(), time.monotonic() - started


def test_api_requests_that_waited_too_long_are_shed_pages_wait(gunicorn):
    # One thread, 0.3 s per request, 100 ms of patience: of six API requests at once the first
    # is served, the ones that waited behind it are refused at once.
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(_get, [f"{gunicorn}/api/matches/?n={i}" for i in range(6)]))
    served = [a for a in answers if a[0] == 200]
    shed = [a for a in answers if a[0] == 503]
    assert len(served) >= 1 and len(shed) >= 3, [a[0] for a in answers]
    assert len(served) + len(shed) == 6
    assert all(a[1] == "1" and b'"error": "busy"' in a[2] for a in shed)
    # Pages are never shed: all six are served, one after the other.
    with ThreadPoolExecutor(6) as pool:
        pages = list(pool.map(_get, [f"{gunicorn}/lobby/?n={i}" for i in range(6)]))
    assert [p[0] for p in pages] == [200] * 6
    assert max(p[3] for p in pages) >= 1.5  # they queued (6 × 0.3 s on one thread)
