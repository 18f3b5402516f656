"""A Redis database of its own for each xdist worker of the real-services pass.

Loaded with ``-p tests.support.xdist_services`` (.ci/test-suite). Each worker already gets a test
database of its own (pytest-django's ``_gw0``/``_gw1`` suffix); the channel layer, the cache, the Celery
broker and the test's Celery worker all follow REDIS_URL, so worker ``gwN`` moves it to database
number + N and sees nothing of the other's groups, keys and tasks. It must run before Django reads its
settings: pytest-django loads them with the initial conftests, and ``-p`` plugins are imported before."""
from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit


def own_redis_url(url: str, worker: str) -> str:
    """``redis://host:port/5`` for worker ``gw1`` → ``redis://host:port/6``."""
    if not (url and worker.startswith("gw")):
        return url
    parts = urlsplit(url)
    db = int(parts.path.lstrip("/") or 0) + int(worker[2:])
    return urlunsplit(parts._replace(path=f"/{db}"))


if os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = own_redis_url(os.environ["REDIS_URL"], os.environ.get("PYTEST_XDIST_WORKER", ""))
