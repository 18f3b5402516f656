"""A move's follow-up (clocks, "your turn" notification) runs after commit: inline on the
embedded default, in the real Celery worker on the real services (the production setting there),
and inline again when the broker cannot take the task."""
import pytest

from clocks.models import SeatClock
from matches import services
from notifications.models import Notification
from tests.conftest import wait_for
from tests.platform.helpers import seat_of, start_minigame, to_move_user
from tests.support.worker import wait_idle


def _move_and_expect_follow_up(match, mover):
    services.submit_action(match.pk, mover, {"type": "draw"}, match.version)
    match.refresh_from_db()
    waiting = [s for s in match.seats.all() if s.seat in match.to_move][0]
    # The clock of the player now to move runs, and they are told it is their turn.
    wait_for(lambda: SeatClock.objects.filter(seat=waiting, started_at__isnull=False).exists()
             and SeatClock.objects.filter(user=mover, started_at__isnull=True).exists())
    wait_for(lambda: Notification.objects.filter(user_id=waiting.user_id, kind="your_turn",
                                                 data__match=match.pk).count() >= 1)
    return waiting


@pytest.mark.django_db(transaction=True)
def test_follow_up_in_the_worker(make_user, settings, celery_worker):
    settings.MATCH_FOLLOW_UP_IN_WORKER = True
    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    waiting = _move_and_expect_follow_up(match, to_move_user(match))
    # The start's follow-up (the first mover's "your turn") may arrive later; neither repeats.
    wait_for(lambda: Notification.objects.filter(kind="your_turn", data__match=match.pk).count() == 2)
    assert Notification.objects.filter(user_id=waiting.user_id, kind="your_turn").count() == 1
    wait_idle()  # the mails these notifications send are the worker's, too


@pytest.mark.django_db(transaction=True)
def test_follow_up_runs_inline_when_the_broker_refuses(make_user, settings, monkeypatch, celery_worker):
    from kombu.exceptions import OperationalError

    from matches import tasks

    settings.MATCH_FOLLOW_UP_IN_WORKER = True

    def refuse(*args, **kwargs):
        raise OperationalError("broker down")

    monkeypatch.setattr(tasks.announce_changes, "apply_async", refuse)
    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    waiting = _move_and_expect_follow_up(match, to_move_user(match))
    assert seat_of(match, waiting.user) == waiting.seat
    wait_idle()  # the inline notify() queued its mails for the worker


def test_changes_of_the_same_moment_travel_as_one_task(monkeypatch):
    """matches/followups.py: follow-ups committed within a few milliseconds share one task, in
    order; a batch the broker refuses runs inline."""
    import time

    from matches import followups, tasks

    sent, inline = [], []
    monkeypatch.setattr(tasks.announce_changes, "apply_async", lambda args, **kw: sent.append(args[0]))
    for version in (1, 2, 3):
        followups.submit(7, version, "active", [version % 2], [(version + 1) % 2], {"actor": 0})
    time.sleep(0.3)
    assert sent == [[[7, v, "active", [v % 2], [(v + 1) % 2], {"actor": 0}] for v in (1, 2, 3)]]

    def refuse(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.announce_changes, "apply_async", refuse)
    monkeypatch.setattr(services, "send_change_signals", lambda *item: inline.append(item[:2]))
    followups.submit(8, 1, "active", [0], None, None)
    time.sleep(0.3)
    assert inline == [(8, 1)]


def test_changes_a_few_milliseconds_apart_share_one_batch(monkeypatch):
    """The flusher waits out its whole window: each submit() wakes it, and a single wait used to
    send batches of one or two changes under load."""
    import time

    from matches import followups, tasks

    sent = []
    monkeypatch.setattr(followups, "FLUSH_AFTER_S", 0.5)
    monkeypatch.setattr(tasks.announce_changes, "apply_async", lambda args, **kw: sent.append(args[0]))
    for version in range(1, 6):
        followups.submit(9, version, "active", [0], [1], None)
        time.sleep(0.01)
    deadline = time.monotonic() + 5
    while not sent and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [[item[1] for item in batch] for batch in sent] == [[1, 2, 3, 4, 5]]


def test_the_flusher_outlives_a_batch_that_raises(monkeypatch):
    """A batch whose sending raises (here: the broker refuses and the inline run raises too) must
    not end the process's flusher thread: the next changes still go out."""
    import time

    from matches import followups, tasks

    def refuse(*args, **kwargs):
        raise ConnectionError("broker down")

    def broken(*item):
        raise RuntimeError("inline run failed")

    monkeypatch.setattr(tasks.announce_changes, "apply_async", refuse)
    monkeypatch.setattr(services, "send_change_signals", broken)
    import django.db

    def no_close():
        raise RuntimeError("no database here")

    monkeypatch.setattr(django.db, "close_old_connections", no_close)
    followups.submit(10, 1, "active", [0], None, None)
    time.sleep(0.3)
    sent = []
    monkeypatch.setattr(tasks.announce_changes, "apply_async", lambda args, **kw: sent.append(args[0]))
    followups.submit(10, 2, "active", [1], [0], None)
    deadline = time.monotonic() + 5
    while not sent and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [[item[1] for item in batch] for batch in sent] == [[2]]
