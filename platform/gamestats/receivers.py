"""The summary is made in the follow-up itself (matches/progress.py; idempotent: one
GameSummary per match); a failure is redone by the follow-up sweep."""
from matches.signals import match_finished


def on_match_finished(sender, match_id, **kwargs):
    from .summaries import summarize_match

    summarize_match(match_id)


def connect():
    match_finished.connect(on_match_finished, dispatch_uid="gamestats.on_match_finished")
