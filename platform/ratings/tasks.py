from celery import shared_task
from django.db import OperationalError


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def rate_match(match_id: int) -> bool:
    """Rates a finished match (idempotent: a match is rated at most once)."""
    from .services import rate_match as run

    return run(match_id)
