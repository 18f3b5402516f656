import time

from celery import shared_task

from . import heartbeat


@shared_task(ignore_result=True)
def beat_heartbeat() -> None:
    """Scheduled by beat, run by a worker: its time says both are alive and the queue moves."""
    r = heartbeat.client()
    if r is not None:
        r.set(heartbeat.BEAT_KEY, repr(time.time()), ex=86400)
