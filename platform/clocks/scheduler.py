"""Periodic jobs without Celery beat. The embedded default has no beat: ``make run`` sets
SPIELTISCH_CLOCK_THREAD=1 and the site process runs the jobs in a daemon thread
(``manage.py run_clock`` does the same as a process of its own). On the real services Celery
beat runs the same jobs as tasks (clocks.tasks.sweep, notifications.tasks.flush/digests)."""
import logging
import threading

from django.db import close_old_connections

from . import conf

logger = logging.getLogger(__name__)
JOBS: list = []  # callables taking no arguments; apps register theirs in AppConfig.ready
_started = threading.Event()


def register(job) -> None:
    if job not in JOBS:
        JOBS.append(job)


def run_once() -> dict:
    results = {}
    for job in list(JOBS):
        try:
            results[f"{job.__module__}.{job.__name__}"] = job()
        except Exception:  # keep going: the next round may succeed (e.g. the database was locked)
            logger.exception("periodic job %s failed", job)
        finally:
            close_old_connections()
    return results


def run_forever(interval: float | None = None, stop: threading.Event | None = None) -> None:
    interval = interval or conf.SWEEP_SECONDS
    stop = stop or threading.Event()
    while not stop.wait(interval):
        run_once()


def start_thread() -> None:
    if _started.is_set():
        return
    _started.set()
    threading.Thread(target=run_forever, name="periodic-jobs", daemon=True).start()
