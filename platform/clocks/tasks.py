from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def sweep() -> dict:
    """Reminders, automatic vacations and timeouts that are due (Celery beat runs it every minute)."""
    from .services import sweep as run

    return run()
