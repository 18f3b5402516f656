"""Subscriptions to the match signals, heard in the follow-up after commit (matches/progress.py:
on the real services in the worker). The table's result is recorded right there (idempotent:
a table with a result is left alone); a failure is redone by the follow-up sweep."""
from django.dispatch import receiver

from matches.signals import match_finished

from .models import Table


@receiver(match_finished, dispatch_uid="tournaments.match_finished")
def on_match_finished(sender, match_id, **kwargs):
    if Table.objects.filter(match_id=match_id, result__isnull=True).exists():
        from .services import match_finished as record

        record(match_id)
