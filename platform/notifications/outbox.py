"""The sends that are due leave from here: after the commit that made them due, or, inside a
worker task, together when the task ends (``start_collecting``).

Direction: ``notify`` and the attention rules make sends due and the tasks send them; this
module sits between, and reaches the tasks through ``signals.sends_due`` rather than importing
them (the tasks import the modules that call this).
"""
from __future__ import annotations

import threading

from . import signals


def enqueue(deliveries: list[tuple[int, str]]) -> None:
    """Queue the sends of (delivery id, channel) pairs; the channel saves the task a query.
    Inside a worker task (see ``start_collecting``) they wait for the task's end and go as one."""
    if not deliveries:
        return
    collected = getattr(_collector, "due", None)
    if collected is not None:
        collected.extend(deliveries)
        return
    _publish(deliveries)


def _publish(deliveries: list[tuple[int, str]]) -> None:
    # tasks.queue_sends: deliver / deliver_many (a broker that is down: the flush re-enqueues)
    signals.sends_due.send(sender=None, deliveries=deliveries)


# In the worker, the sends that one task makes due are published together when it ends: a
# batch of move follow-ups makes up to 50 "your turn" deliveries, and a Celery publish each
# was a quarter of the follow-up's CPU (py-spy). A worker killed before the end
# loses no send: the rows are PENDING, and ``flush`` re-enqueues them after STUCK_MINUTES.
_collector = threading.local()


def start_collecting() -> None:
    _collector.due = []


def take_collected() -> list[tuple[int, str]]:
    """The collected sends (and collecting ends)."""
    due, _collector.due = getattr(_collector, "due", None), None
    return due or []


def publish_collected() -> None:
    due = take_collected()
    if due:
        _publish(due)
