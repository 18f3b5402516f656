"""Celery tasks of tournaments: take ids, idempotent."""
from celery import shared_task

from . import conf


@shared_task(acks_late=True)
def table_finished(match_id: int) -> bool:
    """A tournament match ended: record its result; close the round and pair the next one
    when it was the last open table."""
    from .services import match_finished

    return match_finished(match_id)


@shared_task(acks_late=True)
def close_due_rounds() -> int:
    """Periodic (Celery beat): rounds past their deadline, reminders, ended league seasons."""
    from .services import close_due_rounds as run

    return run()


def register_schedule() -> None:
    from config.celery import app

    app.conf.beat_schedule.update({"tournaments-close-due-rounds": {
        "task": "tournaments.tasks.close_due_rounds", "schedule": conf.CHECK_MINUTES * 60.0}})
