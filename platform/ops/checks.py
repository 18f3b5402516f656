"""The health checks: database, Redis, broker, the newest worker heartbeat, the follow-up
backlog. Each returns a dict with ``ok`` and what it measured; a check whose service is not
configured (the embedded default: no Redis, tasks run in-process) is ``ok`` and ``skipped``."""
from __future__ import annotations

import time

from django.conf import settings
from django.db import connection

from . import backlog, heartbeat
from .redis_client import client


def _limit(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"ok": True}


def redis() -> dict:
    r = client()
    if r is None:
        return {"ok": True, "skipped": True}
    r.ping()
    return {"ok": True}


def broker() -> dict:
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return {"ok": True, "skipped": True}
    r = client(settings.CELERY_BROKER_URL)
    if r is not None:
        r.ping()
        return {"ok": True, "queued": backlog.queue_depths()}
    from config.celery import app

    with app.connection_for_write() as conn:  # another broker: can we connect?
        conn.ensure_connection(max_retries=1)
    return {"ok": True}


def worker() -> dict:
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return {"ok": True, "skipped": True}
    age = heartbeat.newest_age()
    limit = _limit("HEALTH_WORKER_MAX_AGE_S", 30)
    return {"ok": age is not None and age <= limit, "age_s": None if age is None else round(age, 1),
            "limit_s": limit}


def followups() -> dict:
    b = backlog.followup_backlog()
    limit = _limit("HEALTH_FOLLOWUP_MAX_LAG_S", 60)
    return {"ok": b.lag_s <= limit, "pending": b.pending, "lag_s": round(b.lag_s, 1), "limit_s": limit}


CHECKS = {"database": database, "redis": redis, "broker": broker, "worker": worker, "followups": followups}


def run_all() -> dict:
    """{"status": "ok"|"failing", "failing": [...], "checks": {name: {...}}}; a check that
    raises fails with its error's class and message (no traceback)."""
    results = {}
    for name, check in CHECKS.items():
        t0 = time.perf_counter()
        try:
            result = check()
        except Exception as exc:
            result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
        result["ms"] = round((time.perf_counter() - t0) * 1000, 1)
        results[name] = result
    failing = [name for name, r in results.items() if not r["ok"]]
    return {"status": "failing" if failing else "ok", "failing": failing, "checks": results}
