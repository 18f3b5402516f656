"""The Celery app. With REDIS_URL set it talks to a real broker and worker; without it
(the embedded default) tasks run eagerly in-process (see settings.CELERY_TASK_ALWAYS_EAGER)."""
import os

from celery import Celery
from celery.signals import task_prerun, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("spieltisch")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# How long a worker process keeps its database connection (seconds; 0: a new one per task).
WORKER_DB_CONN_MAX_AGE = int(os.environ.get("WORKER_DB_CONN_MAX_AGE", "600"))


@worker_process_init.connect
def _persistent_db_connections(**_):
    """A pool process runs one task at a time, so one kept connection per process is safe
    (unlike the web server's thread per request). Connecting anew per task cost more than
    the task itself: see docs/performance.md, "Notifications". Health checks make a kept
    connection that died with a PostgreSQL restart reconnect on the next task."""
    from django.db import connections

    if WORKER_DB_CONN_MAX_AGE <= 0:
        return
    # (Celery's Django fixup would close them around every task: settings.CELERY_DB_REUSE_MAX.)
    for alias in connections:
        connections.settings[alias].get("OPTIONS", {}).pop("pool", None)  # one connection, no pool
        connections.settings[alias]["CONN_MAX_AGE"] = WORKER_DB_CONN_MAX_AGE
        connections.settings[alias]["CONN_HEALTH_CHECKS"] = True


@task_prerun.connect
def _drop_unusable_db_connections(sender=None, **_):
    """As Django does at the start of a request: close a connection that broke, is past its
    age, or (health check) no longer answers."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return  # in-process: the caller's connection and transaction
    from django.db import close_old_connections

    close_old_connections()
