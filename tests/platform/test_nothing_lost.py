"""Follow-ups: nothing lost, in-process (both passes; the follow-ups run inline here).
A receiver that raises does not stop the others and is redone alone; a match finished while the
broker is down is rated and summarised; a follow-up lost with its process is found and redone by
the sweep; redoing changes nothing twice. The real-stack drills: tests/drills/test_followup_drills.py."""
from datetime import timedelta

import pytest
from celery.app.task import Task
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnavailable

from clocks.models import SeatClock
from gamestats.models import GameSummary
from matches import followups, progress, services
from matches.models import FollowUp
from notifications.models import Notification
from ratings.models import RatedMatch
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)
RATINGS = "ratings.receivers.on_match_finished"


@pytest.fixture
def inline(settings):
    settings.MATCH_FOLLOW_UP_IN_WORKER = False  # the follow-up runs here, in both passes


def later(seconds=60):
    return timezone.now() + timedelta(seconds=seconds)


def test_a_receiver_that_raises_does_not_stop_the_others(make_user, inline, monkeypatch):
    from ratings import services as ratings

    def broken(match_id):
        raise RuntimeError("the ratings are down")

    monkeypatch.setattr(ratings, "rate_match", broken)
    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    services.resign(match.pk, b)
    match.refresh_from_db()
    assert match.status == "finished"
    # The other receivers of the same signal ran: the summary, both players told.
    assert GameSummary.objects.filter(match=match).exists()
    assert Notification.objects.filter(match=match, kind="match_finished").count() == 2
    assert not RatedMatch.objects.filter(match=match).exists()
    row = FollowUp.objects.get(match=match)
    assert row.version == match.version and row.owed == {RATINGS: match.version} and row.retry_at
    assert progress.followup_backlog()["count"] == 1
    # The sweep retries it alone while it still fails (backoff), and does it once it works.
    assert progress.sweep(now=later())["retried"] == 1
    row.refresh_from_db()
    assert row.owed == {RATINGS: match.version} and row.attempts == 1
    monkeypatch.undo()
    assert progress.sweep(now=later(3600))["retried"] == 1
    row.refresh_from_db()
    assert row.owed == {} and row.retry_at is None and row.attempts == 0
    assert RatedMatch.objects.filter(match=match, rated=True).count() == 1
    assert Notification.objects.filter(match=match, kind="match_finished").count() == 2  # not twice
    assert progress.followup_backlog() == {"count": 0, "oldest_seconds": 0.0}


def test_a_match_finished_while_the_broker_is_down_is_rated_and_summarised(make_user, settings, monkeypatch):
    """The follow-up is meant for the worker, but no task can be queued (every apply_async
    refuses, as kombu does with Redis down): it runs here, and every receiver does its work."""
    settings.MATCH_FOLLOW_UP_IN_WORKER = True

    def refused(self, *args, **kwargs):
        raise BrokerUnavailable("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    followups.flush()
    monkeypatch.setattr(Task, "apply_async", refused)
    services.resign(match.pk, a)
    followups.flush()  # the batch: refused by the broker, run inline
    monkeypatch.undo()
    assert RatedMatch.objects.filter(match=match).count() == 1
    assert GameSummary.objects.filter(match=match).count() == 1
    assert FollowUp.objects.get(match=match).owed == {}


def test_a_follow_up_lost_with_its_process_is_redone_by_the_sweep(make_user, settings, monkeypatch):
    settings.MATCH_FOLLOW_UP_IN_WORKER = True
    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    followups.flush()
    mover = to_move_user(match)
    monkeypatch.setattr(followups, "submit", lambda *args: None)  # the process died before its batch left
    match.refresh_from_db()
    services.submit_action(match.pk, mover, {"type": "draw"}, match.version)
    monkeypatch.undo()
    match.refresh_from_db()
    waiting = to_move_user(match)
    assert not SeatClock.objects.filter(user=waiting, match=match, started_at__isnull=False).exists()
    backlog = progress.followup_backlog()
    assert backlog["count"] == 1
    assert progress.sweep()["redone"] == 0  # not yet: it may still be on its way
    assert progress.sweep(now=later())["redone"] == 1
    assert SeatClock.objects.filter(user=waiting, match=match, started_at__isnull=False).exists()
    assert Notification.objects.filter(user=waiting, kind="your_turn", match=match).count() == 1
    assert FollowUp.objects.get(match=match).version == match.version
    assert progress.sweep(now=later())["redone"] == 0
    assert progress.followup_backlog()["count"] == 0


def test_a_batch_receiver_that_fails_part_of_a_batch_owes_only_that_part(make_user, inline, monkeypatch):
    from clocks import receivers as clock_receivers

    a, b, c, d = (make_user(n) for n in "abcd")
    first, second = start_minigame(a, b), start_minigame(c, d)
    follow = clock_receivers._follow

    def fails_for_second(changes):
        if any(ch["match_id"] == second.pk for ch in changes):
            raise RuntimeError("this clock is broken")
        follow(changes)

    monkeypatch.setattr(clock_receivers, "_follow", fails_for_second)
    changes = [progress._change_of(m, start=False) for m in (first, second)]
    for change in changes:
        change["version"] += 1  # as if each had moved
    progress.follow(changes)
    clocks_name = "clocks.receivers.clocks_follow_matches"
    assert FollowUp.objects.get(match=first).owed == {}
    assert FollowUp.objects.get(match=second).owed == {clocks_name: second.version + 1}


@pytest.mark.django_db
def test_an_empty_batch_records_nothing_and_raises_nothing(caplog):
    # The chaos soak's worker logged "syntax error at or near ON" from an empty batch's
    # progress upsert (INSERT … VALUES  ON CONFLICT …).
    assert progress.follow([]) == 0
    assert "not recorded" not in caplog.text
    assert FollowUp.objects.count() == 0


@pytest.fixture
def no_queue_wait():
    from django.core.cache import cache

    cache.delete(progress.QUEUE_WAIT_KEY)
    yield
    cache.delete(progress.QUEUE_WAIT_KEY)


def test_the_sweep_leaves_a_follow_up_still_waiting_behind_a_busy_worker(make_user, settings, monkeypatch,
                                                                        no_queue_wait):
    # The chaos soak: 250 batches queued behind a slow worker (~20 s); the sweep took every
    # match behind for more than LAG_S for lost and redid it alone, doubling the worker's work.
    import time

    from matches.tasks import announce_changes

    settings.MATCH_FOLLOW_UP_IN_WORKER = True
    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    followups.flush()
    monkeypatch.setattr(followups, "submit", lambda *args: None)  # its batch is somewhere in the queue
    match.refresh_from_db()
    services.submit_action(match.pk, to_move_user(match), {"type": "draw"}, match.version)
    monkeypatch.undo()
    assert announce_changes([], sent_at=time.time() - 90) == 0  # the worker took a batch 90 s old
    assert 89 < progress.queue_wait() < 120
    assert progress.sweep(now=later(60))["redone"] == 0  # 60 s behind: still on its way
    assert progress.sweep(now=later(120))["redone"] == 1  # beyond LAG_S + the queue's wait: lost
    assert progress.followup_backlog()["count"] == 0
