"""The follow-up backlog: changes committed whose follow-up (clocks, "your turn", ratings...)
has not run yet, and how long the oldest has waited.

The one place the health check, the metrics and bench/chaos.py ask: the follow-ups from the
durable progress records (``matches.progress``), and the Celery queues' lengths in the broker.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.apps import apps
from django.conf import settings

from .redis_client import client

# Kombu's Redis transport keeps a queue as a list of that name, plus one list per priority
# step ("<queue>\x06\x16<n>") when priorities are used.
QUEUES = ("celery", "notifications")
PRIORITY_STEPS = ("", *(f"\x06\x16{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9)))


@dataclass
class Backlog:
    pending: int  # changes (matches) whose follow-up has not run
    lag_s: float  # age of the oldest of them (0 when none)


def followup_backlog(now=None) -> Backlog:
    """Read from the durable follow-up records (``matches.progress``): matches whose follow-up
    lags behind their committed version, plus those owed a receiver."""
    from matches.progress import followup_backlog as backlog

    data = backlog(now)
    return Backlog(int(data["count"]), float(data["oldest_seconds"]))


def queue_depths() -> dict[str, int]:
    """Messages waiting in each Celery queue (a Redis broker); {} on the embedded default."""
    url = getattr(settings, "CELERY_BROKER_URL", "")
    r = client(url)
    if r is None:
        return {}
    pipe = r.pipeline(transaction=False)
    for queue in QUEUES:
        for step in PRIORITY_STEPS:
            pipe.llen(queue + step)
    lengths = pipe.execute()
    n = len(PRIORITY_STEPS)
    return {queue: sum(lengths[i * n:(i + 1) * n]) for i, queue in enumerate(QUEUES)}


def mail_backlog() -> int:
    """E-mails due and not yet sent (held for quiet hours or a digest do not count)."""
    if not apps.is_installed("notifications"):
        return 0
    from notifications.models import Delivery

    return Delivery.objects.filter(channel=Delivery.Channel.EMAIL, status=Delivery.Status.PENDING).count()
