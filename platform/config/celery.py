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
    the task itself: see docs/performance.md, "Measured choices". Health checks make a kept
    connection that died with a PostgreSQL restart reconnect on the next task."""
    from django.db import connections

    if WORKER_DB_CONN_MAX_AGE <= 0:
        return
    # (Celery's Django fixup would close them around every task: settings.CELERY_DB_REUSE_MAX.)
    for alias in connections:
        connections.settings[alias].get("OPTIONS", {}).pop("pool", None)  # one connection, no pool
        connections.settings[alias]["CONN_MAX_AGE"] = WORKER_DB_CONN_MAX_AGE
        connections.settings[alias]["CONN_HEALTH_CHECKS"] = True


@worker_process_init.connect
def _tune_gc(**_):
    from core.warmup import tune_gc

    tune_gc()


@task_prerun.connect
def _drop_unusable_db_connections(sender=None, **_):
    """As Django does at the start of a request: close a connection that broke, is past its
    age, or (health check) no longer answers."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return  # in-process: the caller's connection and transaction
    from django.db import close_old_connections

    close_old_connections()


def _collected_channel_is_a_lost_connection() -> None:
    """kombu's Redis channel reads its settings from ``connection.client``, which
    ``Connection.collect()`` sets to None when Celery's consumer drops a broken connection
    (broker restarted). A channel of the old connection that is used after that (a gossip
    restart, an acknowledgement) then failed with ``AttributeError: 'NoneType' object has no
    attribute 'hostname'`` (or ``'connection_errors'``): not a connection error, so the worker
    took it as "Unrecoverable" and stopped consuming (kombu issue 582's class).
    Raised as the connection error it is, Celery reconnects and the message is redelivered."""
    from kombu.transport import redis as kombu_redis

    original = kombu_redis.Channel._connparams
    if getattr(original, "spieltisch_guard", False):
        return

    def _connparams(self, *args, **kwargs):
        if self.connection is None or self.connection.client is None:
            from redis.exceptions import ConnectionError as RedisConnectionError

            raise RedisConnectionError("the broker connection of this channel was closed (broker restarted)")
        return original(self, *args, **kwargs)

    _connparams.spieltisch_guard = True
    kombu_redis.Channel._connparams = _connparams


_collected_channel_is_a_lost_connection()
