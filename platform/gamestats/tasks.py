from celery import shared_task
from django.db import OperationalError


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def summarize_match(match_id: int) -> bool:
    """Stores a finished match's statistics summary (idempotent: once per match)."""
    from .summaries import summarize_match as run

    return run(match_id)
