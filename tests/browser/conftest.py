"""Browser tests: a real ASGI server (daphne, a separate process) on the test database and
Debian's chromium driven by Playwright (no browser download: there is no internet here)."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.addresses import free_port

ROOT = Path(__file__).resolve().parents[2]
# Playwright's sync API runs an event loop in the test thread; the tests' own ORM reads are
# still plain synchronous code. (Not passed on to the server process.)
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def _csp_safe_predicates() -> None:
    """The pages enforce a Content-Security-Policy without 'unsafe-eval' (web/csp.py).
    Playwright polls a string *expression* given to wait_for_function with eval (refused by the
    policy) but a function through the DevTools protocol: expressions become functions here."""
    import re

    from playwright.sync_api import Page

    original = Page.wait_for_function
    if getattr(original, "csp_safe", False):
        return
    looks_like_function = re.compile(r"^\s*(async\s+)?(function\b|\([^()]*\)\s*=>|\w+\s*=>)")

    def wait_for_function(self, expression, *args, **kwargs):
        if isinstance(expression, str) and not looks_like_function.match(expression):
            expression = f"() => ({expression})"
        return original(self, expression, *args, **kwargs)

    wait_for_function.csp_safe = True
    Page.wait_for_function = wait_for_function


_csp_safe_predicates()


@pytest.fixture
def live_site(request, transactional_db, celery_worker):
    """The site served by daphne on the test database; yields its base URL."""
    from tests.support.worker import test_database_url

    port = free_port()
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}",
           "SPIELTISCH_EXTRA_GAMES": "tests.support.minigame", "DJANGO_DEBUG": "0",
           # Orders answer at once here too (the delay that hides them: tests/security/test_orders_secrets.py).
           "ORDER_ANSWER_DELAY": "0,0"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    if connection.vendor == "postgresql":
        env["DATABASE_URL"] = test_database_url()
    else:
        env.pop("DATABASE_URL", None)
        env["SQLITE_PATH"] = str(connection.settings_dict["NAME"])
    if settings.REDIS_URL:
        env["REDIS_URL"] = settings.REDIS_URL
    # One log per xdist worker: pass 1 of the suite runs on two.
    log_name = f"test-daphne-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    log = open(ROOT / "var" / log_name, "w")
    request.node.daphne_log = ROOT / "var" / log_name  # shown with a failure (below)
    proc = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                             "config.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90  # a loaded two-core box (CI runs two workers) starts slowly
    while True:
        try:
            urllib.request.urlopen(base + "/lobby/", timeout=1)
            break
        except Exception:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"daphne did not start; see var/{log_name}")
            time.sleep(0.2)
    yield base
    proc.terminate()
    proc.wait(timeout=10)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing browser test shows the server's side too: the end of its daphne log (the
    requests with their status codes, tracebacks), where CI keeps nothing else of it."""
    outcome = yield
    report = outcome.get_result()
    log = getattr(item, "daphne_log", None)
    if log and report.failed and report.when == "call" and log.exists():
        tail = log.read_text(errors="replace").splitlines()[-60:]
        report.sections.append(("daphne log, last 60 lines", "\n".join(tail)))


@pytest.fixture
def playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture
def browser(playwright):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    b = playwright.chromium.launch(executable_path=CHROMIUM,
                                   args=["--headless", "--no-sandbox", "--disable-background-networking",
                                         "--disable-gpu", "--disable-component-update", "--no-first-run"])
    yield b
    b.close()


@pytest.fixture
def api_request(playwright):
    return playwright.request
