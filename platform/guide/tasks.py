"""Guests nobody signed up with are removed a day after they were made (accounts/guests.py),
with their guided matches: on Celery beat and on the embedded default's periodic thread."""
from __future__ import annotations

from datetime import timedelta

from celery import shared_task

EVERY_S = 3600.0


def remove_stale_guests() -> int:
    """Deletes guests older than ``LIFETIME_HOURS`` and the matches they sat in (guided matches
    against a bot: nobody else's). Returns the number of guests removed."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from accounts.guests import LIFETIME_HOURS
    from matches.models import Match

    cutoff = timezone.now() - timedelta(hours=LIFETIME_HOURS)
    User = get_user_model()
    ids = list(User.objects.filter(profile__guest_since__lt=cutoff).values_list("pk", flat=True)[:500])
    if not ids:
        return 0
    with transaction.atomic():
        Match.objects.filter(seats__user_id__in=ids).delete()
        User.objects.filter(pk__in=ids, profile__guest_since__lt=cutoff).delete()
    return len(ids)


@shared_task(acks_late=True, ignore_result=True)
def remove_stale_guests_task() -> int:
    return remove_stale_guests()


def register_schedule() -> None:
    from django.apps import apps

    from config.celery import app

    app.conf.beat_schedule.update({"guide-remove-stale-guests": {
        "task": "guide.tasks.remove_stale_guests_task", "schedule": EVERY_S}})
    if apps.is_installed("clocks"):  # the embedded default's periodic thread (no beat there)
        from clocks.scheduler import register

        register(remove_stale_guests)
