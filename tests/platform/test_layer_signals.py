"""The signals by which a lower module asks the modules that run it for work (no import back up):
each reaches its one receiver exactly once, so nothing is lost and nothing is done twice."""
import pytest

from matches import signals as match_signals
from matches.models import Match


def test_a_committed_change_reaches_its_follow_up_once(monkeypatch, settings):
    from matches import services

    settings.MATCH_FOLLOW_UP_IN_WORKER = False
    seen = []
    monkeypatch.setattr(services, "send_change_signals", lambda *args: seen.append(args))
    match_signals.change_committed.send(sender=Match, match_id=3, version=7, status="active", to_move=[1],
                                        previous_to_move=[0], hints={"actor": 0})
    assert seen == [(3, 7, "active", [1], [0], {"actor": 0})]


def test_in_the_worker_setting_a_committed_change_joins_a_batch(monkeypatch, settings):
    from matches import followups

    settings.MATCH_FOLLOW_UP_IN_WORKER = True
    batched = []
    monkeypatch.setattr(followups, "submit", lambda *item: batched.append(item))
    match_signals.change_committed.send(sender=Match, match_id=4, version=2, status="active", to_move=[0],
                                        previous_to_move=None, hints=None)
    assert batched == [(4, 2, "active", [0], None, None)]


def test_a_bot_to_move_queues_one_task(monkeypatch):
    from matches import tasks

    queued = []
    monkeypatch.setattr(tasks.play_bots, "delay", lambda match_id: queued.append(match_id))
    match_signals.bots_due.send(sender=Match, match_id=11)
    assert queued == [11]


@pytest.mark.django_db
def test_a_started_bot_match_queues_its_bots_after_the_commit(monkeypatch, django_capture_on_commit_callbacks):
    from games import registry
    from matches import services, tasks

    bot = registry.get("kartenduell").default_bot_name()
    queued = []
    monkeypatch.setattr(tasks.play_bots, "delay", lambda match_id: queued.append(match_id))
    with django_capture_on_commit_callbacks() as callbacks:
        match = services.start_match(game="kartenduell", entrants=[{"user": None, "bot": bot}] * 2, options={})
        assert queued == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert queued == [match.pk]


def test_due_sends_are_queued_once(monkeypatch):
    from notifications import outbox, tasks

    one, many = [], []
    monkeypatch.setattr(tasks.deliver, "delay", lambda *args: one.append(args))
    monkeypatch.setattr(tasks.deliver_many, "delay", lambda items: many.append(items))
    outbox.enqueue([(5, "email")])
    outbox.enqueue([(6, "email"), (7, "push")])
    assert one == [(5, "email")] and many == [[[6, "email"], [7, "push"]]]


def test_a_broker_that_is_down_loses_no_send_row(monkeypatch):
    """The queueing fails quietly: the Delivery row stays PENDING for the flush."""
    from kombu.exceptions import OperationalError

    from notifications import outbox, tasks

    def refuse(*args):
        raise OperationalError("broker down")

    monkeypatch.setattr(tasks.deliver, "delay", refuse)
    outbox.enqueue([(5, "email")])  # no exception reaches the caller (it runs after a commit)


def test_notices_due_now_are_decided_by_one_task(monkeypatch):
    from notifications import attention, tasks

    queued = []
    monkeypatch.setattr(tasks.release, "delay", lambda user_ids: queued.append(user_ids))
    attention.release_soon({3, 1})
    assert queued == [[1, 3]]
