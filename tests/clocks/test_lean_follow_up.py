"""An ordinary move (one player's turn ends, the next one's begins) and its follow-up stay
lean: a bounded number of SQL statements (the follow-up was 24), and the follow-up
does the same with or without the hints the move passes along (a task queued by an older
version has none)."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clocks import services as clocks
from clocks.models import PlayerRecord, SeatClock
from matches import services as match_services
from notifications.models import Delivery, Notification
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)
# BEGIN and COMMIT included. PostgreSQL writes the clocks in one UPDATE and a notification with
# its e-mail delivery in one INSERT (the follow-up was 24 statements before); elsewhere one each.
# Plus 1, the follow-ups' progress (matches/progress.py: one upsert per batch, after every
# receiver ran, so that a lost or failed follow-up is found and redone; the move writes nothing).
FOLLOW_UP_MAX_STATEMENTS = {"postgresql": 9}.get(connection.vendor, 11)
# BEGIN, the lock with the seats, the writes, COMMIT and the turn badges' counts after the commit.
# PostgreSQL writes the log entry, the match and the seats' to_move in one statement (it
# was 8); elsewhere one each (the seats one per seat).
MOVE_MAX_STATEMENTS = {"postgresql": 5}.get(connection.vendor, 8)


def _captured_follow_ups(monkeypatch):
    """Each follow-up's statements, captured around matches.services.send_change_signals."""
    runs = []
    send = match_services.send_change_signals

    def capture(*args, **kwargs):
        with CaptureQueriesContext(connection) as q:
            send(*args, **kwargs)
        runs.append([query["sql"] for query in q.captured_queries])

    monkeypatch.setattr(match_services, "send_change_signals", capture)
    return runs


def _play(match):
    match.refresh_from_db()
    match_services.submit_action(match.pk, to_move_user(match), {"type": "draw"}, match.version)


def test_an_ordinary_moves_follow_up_in_few_statements(make_user, monkeypatch):
    from notifications import tasks as notification_tasks

    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    _play(match)  # the first moves: the start made the clocks, a player's first turn their record
    _play(match)
    # The mail is a task of its own (on the embedded default it would run inside the capture).
    monkeypatch.setattr(notification_tasks.deliver, "delay", lambda *args: None)
    runs = _captured_follow_ups(monkeypatch)
    mover = to_move_user(match)
    _play(match)
    match.refresh_from_db()
    waiting = to_move_user(match)
    assert waiting != mover  # an ordinary move: one turn ended, the next one began
    assert len(runs) == 1
    assert len(runs[0]) <= FOLLOW_UP_MAX_STATEMENTS, "\n".join(runs[0])
    # ... and it did all of it: the clocks, the record, "your turn" with its mail.
    assert SeatClock.objects.get(user=waiting, match=match).started_at is not None
    assert SeatClock.objects.get(user=mover, match=match).started_at is None
    assert PlayerRecord.objects.get(user=mover).moves >= 1
    turn = Notification.objects.filter(user=waiting, kind="your_turn", match=match).latest("id")
    assert turn.data["opponents"] == [mover.username]
    assert Delivery.objects.filter(notification=turn, channel="email").exists()


def test_an_ordinary_move_in_few_statements(make_user, monkeypatch):
    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    _play(match)
    monkeypatch.setattr(match_services, "send_change_signals", lambda *args, **kwargs: None)
    match.refresh_from_db()
    mover = to_move_user(match)
    with CaptureQueriesContext(connection) as q:
        match_services.submit_action(match.pk, mover, {"type": "draw"}, match.version)
    assert len(q.captured_queries) <= MOVE_MAX_STATEMENTS, "\n".join(x["sql"] for x in q.captured_queries)
    match.refresh_from_db()
    seats = {s.seat: s.to_move for s in match.seats.all()}
    assert [seat for seat, moving in seats.items() if moving] == match.to_move  # the seats' UPDATE did it


def test_without_hints_the_follow_up_reads_them_and_does_the_same(make_user, monkeypatch):
    """A task queued by an older version (no actor, game or seats): the same clocks, record
    and notification; and the version is applied once."""
    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    calls = []
    monkeypatch.setattr(match_services, "send_change_signals", lambda *args: calls.append(args[:5]))
    mover = to_move_user(match)
    _play(match)
    monkeypatch.undo()
    (match_id, version, status, to_move, previous), = calls
    match_services.send_change_signals(match_id, version, status, to_move, previous)  # the old argument list
    match.refresh_from_db()
    waiting = to_move_user(match)
    assert SeatClock.objects.get(user=waiting, match=match).started_at is not None
    assert SeatClock.objects.get(user=mover, match=match).started_at is None
    assert SeatClock.objects.get(user=mover, match=match).moves == 1
    assert PlayerRecord.objects.get(user=mover).moves == 1
    turn = Notification.objects.get(user=waiting, kind="your_turn", match=match)
    assert turn.data["opponents"] == [mover.username] and turn.data["game"] == match.game
    # Repeated (a redelivered task), with or without hints: nothing more.
    match_services.send_change_signals(match_id, version, status, to_move, previous,
                                       {"actor": None, "game": match.game})
    match_services.send_change_signals(match_id, version, status, to_move, previous)
    assert PlayerRecord.objects.get(user=mover).moves == 1
    assert Notification.objects.filter(user=waiting, kind="your_turn", match=match).count() == 1


def test_the_worker_task_takes_both_argument_lists(make_user, monkeypatch):
    from matches import tasks

    seen = []
    monkeypatch.setattr(match_services, "send_change_signals", lambda *args: seen.append(args))
    tasks.announce_change.run(1, 2, "active", [0], [1])
    tasks.announce_change.run(1, 2, "active", [0], [1], hints={"actor": 1})
    assert seen == [(1, 2, "active", [0], [1], None), (1, 2, "active", [0], [1], {"actor": 1})]


def test_the_record_keeps_the_last_turns(make_user):
    """PlayerRecord as an upsert (one statement for all players on PostgreSQL, a SQL expression
    per turn on SQLite): moves + n, the turns' seconds appended in order, only the last RECENT kept."""
    anna, bert = make_user("anna"), make_user("bert")
    clocks._count_moves([(anna.pk, 7)])  # no record yet
    record = PlayerRecord.objects.get(user=anna)
    assert (record.moves, record.recent) == (1, [7])
    full = list(range(PlayerRecord.RECENT))
    PlayerRecord.objects.create(user=bert, moves=5, recent=full)
    # Two turns of one player in one batch (two matches), another player's between them.
    clocks._count_moves([(bert.pk, 999), (anna.pk, 3), (bert.pk, 1000)])
    assert PlayerRecord.objects.get(user=anna).recent == [7, 3]
    record = PlayerRecord.objects.get(user=bert)
    assert record.moves == 7
    assert record.recent == full[2:] + [999, 1000] and len(record.recent) == PlayerRecord.RECENT
