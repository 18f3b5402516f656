"""Subscriptions to the match signals (sent after commit). Kept quick: one indexed lookup,
then the work goes to a Celery task that takes the match id."""
from django.db import transaction
from django.dispatch import receiver

from matches.signals import match_finished

from .models import Table


@receiver(match_finished, dispatch_uid="tournaments.match_finished")
def on_match_finished(sender, match_id, **kwargs):
    if Table.objects.filter(match_id=match_id, result__isnull=True).exists():
        from .tasks import table_finished

        transaction.on_commit(lambda: table_finished.delay(match_id))
