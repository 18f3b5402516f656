"""match_finished arrives after commit; the rating work runs in a Celery task."""
from matches.signals import match_finished


def on_match_finished(sender, match_id, **kwargs):
    from .tasks import rate_match

    rate_match.delay(match_id)


def connect():
    match_finished.connect(on_match_finished, dispatch_uid="ratings.on_match_finished")
