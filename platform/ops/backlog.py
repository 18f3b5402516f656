"""The follow-up backlog: changes committed whose follow-up (clocks, "your turn", ratings...)
has not run yet, and how long the oldest has waited.

The one place the health check, the metrics and bench/chaos.py ask. Until the durable
follow-up records (an outbox per receiver) exist, it is read from what exists: a match whose
time control records an older version than the match's own has a follow-up pending
(``clocks`` records every version it applied: ``TimeControl.version``, made by the first
follow-up of a match), and the Celery queues'
lengths in the broker. Point ``followup_backlog`` at the outbox once it is there.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timezone as tz

from django.apps import apps
from django.conf import settings
from django.db import connection
from django.utils import timezone

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
    if not apps.is_installed("clocks"):
        return Backlog(0, 0.0)
    from clocks.models import TimeControl
    from matches.models import Match

    m, tc = Match._meta, TimeControl._meta
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count(*), min(m.updated_at) FROM {m.db_table} m LEFT JOIN {tc.db_table} t ON t.match_id = m.id "
            "WHERE COALESCE(t.version, 0) < m.version")
        pending, oldest = cursor.fetchone()
    if not pending:
        return Backlog(0, 0.0)
    if isinstance(oldest, str):  # SQLite without a converter on a raw cursor
        from django.utils.dateparse import parse_datetime

        oldest = parse_datetime(oldest)
    if oldest is not None and timezone.is_naive(oldest):
        oldest = timezone.make_aware(oldest, tz.utc)
    lag = ((now or timezone.now()) - oldest).total_seconds() if oldest else 0.0
    return Backlog(int(pending), max(0.0, lag))


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
