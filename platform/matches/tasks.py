"""Celery tasks of matches: the bots' turns and the follow-ups of committed changes.

Direction: a task runs the match writer (``services``), so this module imports it; the writer
asks for a bot task through ``signals.bots_due``, whose one receiver is ``queue_bots``.
"""
import logging
import time
from datetime import timedelta

from celery import Task, shared_task
from kombu.exceptions import OperationalError as BrokerUnavailable

logger = logging.getLogger(__name__)
RESUME_AFTER_S = 60  # a bot to move for this long has lost its task
RESUME_EVERY_S = 60.0


class EnqueuedAfterCommit(Task):
    """Enqueued from on_commit: the change is already committed, so a broker that is down must
    not turn the request into a 500. The task is lost for now; ``resume_bots`` finds the match."""

    def apply_async(self, *args, **kwargs):
        try:
            return super().apply_async(*args, **kwargs)
        except BrokerUnavailable:
            logger.warning("broker unavailable: %s not queued now; resume_bots will pick it up", self.name)
            return None


@shared_task(base=EnqueuedAfterCommit, acks_late=True)
def play_bots(match_id: int) -> int:
    """Bots take their turns in ``match_id`` (idempotent: it only moves bots that are to move)."""
    from .services import play_bots as run

    return run(match_id)


def queue_bots(sender=None, *, match_id: int, **_) -> None:
    """The receiver of ``signals.bots_due`` (connected in ``MatchesConfig.ready``): the writer
    says a bot is to move, and this module, which runs the writer's bot loop, queues it."""
    play_bots.delay(match_id)


@shared_task(acks_late=True)
def resume_bots(older_than_s: float = RESUME_AFTER_S) -> int:
    """Periodic (Celery beat): queue ``play_bots`` for active matches where a bot has been to
    move for a while, e.g. because the broker was down when the task was to be queued."""
    from django.utils import timezone

    from .models import Match, Seat

    since = timezone.now() - timedelta(seconds=older_than_s)
    ids = list(Seat.objects.filter(to_move=True, to_move_since__lte=since, match__status=Match.Status.ACTIVE)
               .exclude(bot="").values_list("match_id", flat=True).distinct()[:1000])
    for match_id in ids:
        play_bots.delay(match_id)
    return len(ids)


def register_schedule() -> None:
    from config.celery import app

    from .progress import SWEEP_EVERY_S

    app.conf.beat_schedule.update({
        "matches-resume-bots": {"task": "matches.tasks.resume_bots", "schedule": RESUME_EVERY_S},
        "matches-sweep-follow-ups": {"task": "matches.tasks.sweep_followups", "schedule": SWEEP_EVERY_S}})


@shared_task(acks_late=True, ignore_result=True)
def sweep_followups() -> dict:
    """Periodic (Celery beat): redo the follow-ups that were missed or failed (matches/progress.py)."""
    from .progress import sweep

    return sweep()


@shared_task(acks_late=True)
def announce_change(match_id: int, version: int, status: str, to_move: list[int],
                    previous_to_move: list[int] | None, hints: dict | None = None) -> None:
    """The follow-up of a committed change (see followups.announce_change), in the worker.
    ``hints`` is optional: tasks queued by an older version (without it) still run, the
    receivers then read what the hints would have told them. Roll out workers before the web
    processes: an older worker refuses a task with ``hints``."""
    from .services import send_change_signals

    send_change_signals(match_id, version, status, to_move, previous_to_move, hints)


@shared_task(acks_late=True)
def announce_changes(batch: list[list], sent_at: float | None = None) -> int:
    """The follow-ups of several committed changes (matches/followups.py), in order; each item
    is announce_change's argument list. One failing change does not hold up the others.
    ``sent_at`` (time.time() when the batch left; absent from older senders): how long it
    waited in the queue, for the sweep (progress.note_queue_wait)."""
    from . import progress
    from .services import send_changes

    if sent_at is not None:
        progress.note_queue_wait(time.time() - sent_at)
    return send_changes(batch)
