"""match_finished arrives after commit, in the follow-up (matches/progress.py: on the real
services in the worker): the match is rated right there. Rating is idempotent (RatedMatch), and a
failure is redone by the follow-up sweep; a task queued for it could be lost with the broker."""
from matches.signals import match_finished


def on_match_finished(sender, match_id, **kwargs):
    from .services import rate_match

    rate_match(match_id)


def connect():
    match_finished.connect(on_match_finished, dispatch_uid="ratings.on_match_finished")
