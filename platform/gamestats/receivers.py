from matches.signals import match_finished


def on_match_finished(sender, match_id, **kwargs):
    from .tasks import summarize_match

    summarize_match.delay(match_id)


def connect():
    match_finished.connect(on_match_finished, dispatch_uid="gamestats.on_match_finished")
