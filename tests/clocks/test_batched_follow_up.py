"""The worker runs the follow-ups of a batch of changes together (matches.tasks.announce_changes
-> services.send_changes -> clocks.services.on_matches_changed): the same clocks, records and
"your turn" as change by change, in a few statements for the whole batch."""
import pytest
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext

from clocks import services as clocks
from clocks.models import PlayerRecord, SeatClock
from matches import services as match_services
from notifications.models import Delivery, Notification
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)
# BEGIN, the versions, the clocks' read, their writes, the records, the notifications with their
# e-mail deliveries, COMMIT, the unread counts, and the follow-up progress rows after every
# receiver ran (matches/progress.py): for the whole batch on PostgreSQL.
BATCH_MAX_STATEMENTS = 9


@pytest.fixture
def held(monkeypatch):
    """The follow-ups of the moves made meanwhile, held back (as they wait for the worker)."""
    items = []
    monkeypatch.setattr(match_services, "send_change_signals", lambda *item: items.append(list(item)))
    return items


def _move(match):
    match.refresh_from_db()
    mover = to_move_user(match)
    match_services.submit_action(match.pk, mover, {"type": "draw"}, match.version)
    return mover


def _settle(held):
    """The held follow-ups done."""
    match_services.send_changes(held)
    held.clear()


def _duels(make_user, held, n):
    """n matches, each with its own two players; the first move made, all follow-ups done."""
    matches = [start_minigame(make_user(f"p{i}a"), make_user(f"p{i}b")) for i in range(n)]
    for match in matches:
        _move(match)
    _settle(held)
    return matches


def _turn_state(match):
    match.refresh_from_db()
    waiting = to_move_user(match)
    running = {c.user_id: c.started_at is not None for c in SeatClock.objects.filter(match=match)}
    return waiting, running


def test_a_batch_does_for_each_match_what_its_change_alone_does(make_user, held, monkeypatch):
    from notifications import tasks as notification_tasks

    monkeypatch.setattr(notification_tasks.deliver, "delay", lambda *args: None)
    monkeypatch.setattr(notification_tasks.deliver_many, "delay", lambda *args: None)
    matches = _duels(make_user, held, 4)
    before = {m.pk: _turn_state(m)[0] for m in matches}
    movers = {m.pk: _move(m) for m in matches}
    assert len(held) == 4
    with CaptureQueriesContext(connection) as q:
        assert match_services.send_changes(held) == 4
    if connection.vendor == "postgresql":
        assert len(q.captured_queries) <= BATCH_MAX_STATEMENTS, "\n".join(x["sql"] for x in q.captured_queries)
    for match in matches:
        waiting, running = _turn_state(match)
        mover = movers[match.pk]
        assert mover == before[match.pk] and waiting != mover
        assert running == {waiting.pk: True, mover.pk: False}
        assert SeatClock.objects.get(match=match, user=mover).moves == 1
        assert PlayerRecord.objects.get(user=mover).moves == 1
        turn = Notification.objects.filter(user=waiting, kind="your_turn", match=match).latest("id")
        assert turn.data["opponents"] == [mover.username] and turn.data["game"] == match.game
        assert Delivery.objects.filter(notification=turn, channel="email").count() == 1


def test_a_batch_with_two_changes_of_one_match_applies_them_in_order(make_user, held):
    anna, bert, cora = make_user("anna"), make_user("bert"), make_user("cora")
    duel = start_minigame(anna, bert)
    other = start_minigame(cora, make_user("dora"))
    # The starts' follow-ups are in the batch too (a round of their own, on the slow path).
    first, second = _move(duel), _move(duel)  # both players of the duel move before the worker runs
    other_mover = _move(other)
    match_services.send_changes(held)
    waiting, running = _turn_state(duel)
    assert waiting == first and running == {first.pk: True, second.pk: False}
    # The second mover was told "your turn" by the first change, then acted: both turns counted.
    assert Notification.objects.filter(user=second, kind="your_turn", match=duel).count() == 1
    assert PlayerRecord.objects.get(user=first).moves == 1 and PlayerRecord.objects.get(user=second).moves == 1
    assert PlayerRecord.objects.get(user=other_mover).moves == 1


def test_one_players_turns_in_two_matches_of_one_batch_both_count(make_user, held):
    anna = make_user("anna")
    one, two = start_minigame(anna, make_user("bert")), start_minigame(anna, make_user("cora"))
    for match in (one, two):  # anna moves first in both (or the others do, then she does)
        if to_move_user(match) != anna:
            _move(match)
    _settle(held)
    _move(one), _move(two)
    match_services.send_changes(held)
    record = PlayerRecord.objects.get(user=anna)
    assert record.moves == 2 and len(record.recent) == 2


def test_a_repeated_or_late_batch_changes_nothing(make_user, held):
    matches = _duels(make_user, held, 3)
    for match in matches:
        _move(match)
    late = [list(item) for item in held]
    match_services.send_changes(held)
    records = sorted(PlayerRecord.objects.values_list("user_id", "moves"))
    notifications = Notification.objects.count()
    match_services.send_changes(late)  # redelivered
    match_services.send_changes([late[0][:5]])  # an older task without hints
    assert sorted(PlayerRecord.objects.values_list("user_id", "moves")) == records
    assert Notification.objects.count() == notifications


def test_a_batch_that_fails_as_a_whole_is_done_change_by_change(make_user, held, monkeypatch):
    """A deadlock with another worker's batch (say) fails the batch's transaction: nothing of it
    is kept, and each change is tried again on its own."""
    matches = _duels(make_user, held, 3)
    movers = [_move(match) for match in matches]
    batched = clocks.on_matches_changed

    def deadlocks(changes, *args, **kwargs):
        if len(changes) > 1:
            batched(changes, *args, **kwargs)  # it wrote, then the database gave up
            raise DatabaseError("deadlock detected")
        return batched(changes, *args, **kwargs)

    monkeypatch.setattr(clocks, "on_matches_changed", deadlocks)
    match_services.send_changes(held)
    for match, mover in zip(matches, movers):
        waiting, running = _turn_state(match)
        assert running == {waiting.pk: True, mover.pk: False}
        assert PlayerRecord.objects.get(user=mover).moves == 1  # once, not twice
        assert Notification.objects.filter(user=waiting, kind="your_turn", match=match).count() == 2


def test_the_starts_of_a_batch_share_their_statements(make_user, held, monkeypatch):
    """A tournament round starts its matches at once: their follow-ups (time controls, clocks,
    "your turn", "it began") take as many statements for four matches as for one, and each
    match gets what its start alone gets."""
    from notifications import tasks as notification_tasks

    monkeypatch.setattr(notification_tasks.deliver, "delay", lambda *args: None)
    monkeypatch.setattr(notification_tasks.deliver_many, "delay", lambda *args: None)

    def starts(n, tag):
        matches = [start_minigame(make_user(f"{tag}{i}a"), make_user(f"{tag}{i}b")) for i in range(n)]
        assert len(held) == n
        sent.extend(list(item) for item in held)
        with CaptureQueriesContext(connection) as q:
            assert match_services.send_changes(held) == n
        held.clear()
        return matches, len(q.captured_queries)

    sent = []
    (single,), one = starts(1, "s")
    round_, four = starts(4, "t")
    if connection.vendor == "postgresql":
        assert four == one, f"{four} statements for four starts, {one} for one"
    for match in [single, *round_]:
        waiting, running = _turn_state(match)
        other = next(s.user for s in match.seats.all() if s.user != waiting)
        assert running == {waiting.pk: True, other.pk: False}
        assert Notification.objects.filter(user=waiting, kind="your_turn", match=match).count() == 1
        assert Notification.objects.filter(user=other, kind="match_started", match=match).count() == 1
        assert not Notification.objects.filter(user=waiting, kind="match_started", match=match).exists()
    clocks_before = sorted(SeatClock.objects.values_list("id", "started_at", "moves"))
    assert match_services.send_changes(sent) == 5  # redelivered: nothing new
    assert Notification.objects.count() == 10
    assert sorted(SeatClock.objects.values_list("id", "started_at", "moves")) == clocks_before
