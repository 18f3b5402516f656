"""Clocks: start and stop on match changes, remind, time out, vacations, players' records.

Every function takes ``now`` (default: the current time) so that tests drive the clock
instead of patching time. The sweep (``sweep``) is run by Celery beat on the real services and
by an in-process loop on the embedded default (see tasks.py, scheduler.py).
"""
from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta
from functools import lru_cache

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from core import plainsql
from matches.errors import MatchError
from matches.models import LogEntry, Match, Seat

from . import conf, timecalc
from .models import PlayerRecord, SeatClock, TimeControl, Vacation

logger = logging.getLogger(__name__)
DAY = 86400.0
UNKNOWN = object()  # an argument the caller did not know (read it)
_TC_FIELDS = ("id", "mode", "move_days", "bank_hours", "increment_hours", "weekends_off", "policy",
              "max_timeout_rate")


class VacationError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# --- time control ---------------------------------------------------------------------------------
def _time_control(match_id: int) -> TimeControl:
    """The match's time control, locked; made from its invitation's (or defaults) on first use."""
    found = _time_controls_of([match_id])
    if match_id not in found:
        raise Match.DoesNotExist(f"match {match_id}")
    return found[match_id]


def _blocked(clock: SeatClock, tc: TimeControl, until: datetime) -> list[timecalc.Interval]:
    start = clock.started_at
    if getattr(clock, "no_vacation_ahead", False):  # known (on_match_changed's read): none ends after start
        blocked = []
    elif getattr(clock, "vacations_ahead", None) is not None:  # read with the others' (presenters.match_clocks)
        blocked = list(clock.vacations_ahead)
    else:
        blocked = [(v.start, v.end) for v in Vacation.objects.filter(user_id=clock.user_id, end__gt=start)]
    if tc.weekends_off:
        tz = getattr(getattr(clock.user, "profile", None), "timezone", None) or "UTC"
        blocked += timecalc.weekends(tz, start, until)
    return blocked


def _horizon(clock: SeatClock, tc: TimeControl, now: datetime) -> datetime:
    # Far enough that every weekend and vacation before the deadline is included.
    budget = tc.budget_seconds(clock.bank_seconds)
    return max(now, clock.started_at) + timedelta(seconds=budget * 2 + 366 * DAY)


def status(clock: SeatClock, tc: TimeControl, now: datetime) -> dict:
    """Used and total seconds of the running turn, and when it runs out."""
    blocked = _blocked(clock, tc, _horizon(clock, tc, now))
    budget = tc.budget_seconds(clock.bank_seconds)
    return {"used": timecalc.elapsed(clock.started_at, now, blocked), "budget": budget,
            "deadline": timecalc.when_elapsed(clock.started_at, budget, blocked), "blocked": blocked}


def _schedule(clock: SeatClock, tc: TimeControl, now: datetime) -> None:
    """Sets next_check_at (the moment the next reminder or the timeout is due) and deadline."""
    if clock.started_at is None or clock.stage >= 3:
        clock.next_check_at = clock.deadline = None
        return
    shares = list(conf.REMINDERS) + [1.0]
    blocked = _blocked(clock, tc, _horizon(clock, tc, now))
    budget = tc.budget_seconds(clock.bank_seconds)
    clock.next_check_at = timecalc.when_elapsed(clock.started_at, budget * shares[clock.stage], blocked)
    # (the same arithmetic as status()["deadline"], kept on the row for "My games")
    clock.deadline = timecalc.when_elapsed(clock.started_at, budget, blocked)


# --- match changes ----------------------------------------------------------------------------------
def on_match_changed(match_id: int, version: int, status: str, to_move: list[int], now: datetime | None = None,
                     *, actor=UNKNOWN):
    """Start the clocks of the seats that must act now, stop the others. Idempotent per version.

    ``actor``: the seat whose action or undo made ``version`` (None: no seat acted), if the
    caller knows it; else it is read from the log. Returns the clocks that started, each with
    its user (profile and notification preference read along), ``has_push`` (for the "your
    turn" notification) and ``usernames`` (user id -> name of every clock's
    player). Runs in the caller's transaction if there is one (no savepoint)."""
    now = now or timezone.now()
    with transaction.atomic(savepoint=False):
        # An ordinary change: one UPDATE records the version (only if newer), takes the time
        # control's row lock (which orders the followers of one match) and returns the time
        # control; then the clocks with their seats and users in one locked read.
        tc = _advance_version(match_id, version) if version > 0 else None
        if tc is None:  # the start, a repeated or older version, or no time control yet
            change = {"match_id": match_id, "version": version, "status": status, "to_move": to_move, "actor": actor}
            return _follow_firsts([change], now)[0][1]
        clocks = _locked_clocks(match_id, now) or _make_clocks_of({match_id: tc}, now).get(match_id, [])
        turn = _Turn(match_id, version, status, to_move, actor)
        _turn_over(turn, clocks, tc, now)
        _write_turns([turn])
    return turn.started


def on_matches_changed(changes: list[dict], now: datetime | None = None) -> list[tuple[dict, list[SeatClock]]]:
    """``on_match_changed`` for a batch of committed changes (the worker's follow-up batch), in
    the caller's transaction: ``changes`` hold its arguments (``match_id``, ``version``,
    ``status``, ``to_move``, optional ``actor``). The ordinary ones (the time control exists and
    the version is newer) share their statements: the versions, the clocks' read, their
    writes and the players' records are one statement each, not one per change. The changes of
    one match are applied in their order, in rounds (the first of each match, then the second…).
    Returns each change with the clocks that started."""
    now = now or timezone.now()
    rounds: list[list[dict]] = []
    seen: dict[int, int] = {}
    for change in changes:
        r = seen.get(change["match_id"], 0)
        seen[change["match_id"]] = r + 1
        if r == len(rounds):
            rounds.append([])
        rounds[r].append(change)
    result = []
    with transaction.atomic(savepoint=False):
        for changes_ in rounds:
            tcs = _advance_versions([(c["match_id"], c["version"]) for c in changes_ if c["version"] > 0])
            ordinary = [c for c in changes_ if c["match_id"] in tcs]
            # the starts, repeated or older versions, no time control yet: together too
            result += _follow_firsts([c for c in changes_ if c["match_id"] not in tcs], now)
            clocks_of = _locked_clocks_of([c["match_id"] for c in ordinary], now)
            clocks_of.update(_make_clocks_of({c["match_id"]: tcs[c["match_id"]] for c in ordinary
                                              if c["match_id"] not in clocks_of}, now))
            turns = []
            for change in ordinary:
                match_id = change["match_id"]
                clocks = clocks_of.get(match_id, [])
                turn = _Turn(match_id, change["version"], change["status"], change["to_move"],
                             change.get("actor", UNKNOWN))
                _turn_over(turn, clocks, tcs[match_id], now)
                turns.append(turn)
                result.append((change, turn.started))
            _write_turns(turns)
    return result


class _Turn:
    """One change's effect on its match's clocks, computed before anything is written."""

    def __init__(self, match_id: int, version: int, status: str, to_move: list[int], actor):
        self.match_id, self.version, self.status, self.to_move, self.actor = match_id, version, status, to_move, actor
        self.changed: list[tuple[SeatClock, set]] = []
        self.started: list[SeatClock] = []
        self.moves: list[tuple[int, int]] = []  # (user id, seconds) of each finished turn
        self.finished_users: list[int] = []


def _follow_firsts(changes: list[dict], now: datetime) -> list[tuple[dict, list[SeatClock]]]:
    """The changes (of different matches) whose time control did not advance: the start, a
    repeated or older version, or no time control yet. Their time controls (made where
    missing) and clocks are read together, locked; a change whose clocks exist and whose
    version was applied already does nothing. A tournament round starts its matches at once:
    one by one, a start's follow-up cost the worker 9.8–11.6 ms of CPU, together 1.9–2.1 ms
    (bench/move_profile.py --batch 10 --matches 100, docs/performance.md "Steady tail")."""
    if not changes:
        return []
    tcs = _time_controls_of([c["match_id"] for c in changes])
    clocks_of = _locked_clocks_of(list(tcs), now)
    todo = [c for c in changes if c["match_id"] in tcs  # (a match deleted meanwhile has none)
            and not (clocks_of.get(c["match_id"]) and c["version"] <= tcs[c["match_id"]].version)]
    for change in todo:
        tcs[change["match_id"]].version = change["version"]
    plainsql.update_each([tcs[c["match_id"]] for c in todo], ["version"])
    clocks_of.update(_make_clocks_of({c["match_id"]: tcs[c["match_id"]] for c in todo
                                      if not clocks_of.get(c["match_id"])}, now))
    turns = {}
    for change in todo:
        match_id = change["match_id"]
        turn = _Turn(match_id, change["version"], change["status"], change["to_move"], change.get("actor", UNKNOWN))
        _turn_over(turn, clocks_of.get(match_id, []), tcs[match_id], now)
        turns[match_id] = turn
    _write_turns(list(turns.values()))
    return [(c, turns[c["match_id"]].started if c["match_id"] in turns else []) for c in changes]


def _time_controls_of(match_ids: list[int]) -> dict[int, TimeControl]:
    """The matches' time controls by match id, locked (in match order); made from the
    invitation's (or defaults and the match's ``move_days``) where missing."""
    def locked(ids):
        return {tc.match_id: tc for tc in
                TimeControl.objects.select_for_update().filter(match_id__in=ids).order_by("match_id")}

    found = locked(match_ids)
    missing = [m for m in match_ids if m not in found]
    if missing:
        fields = ("mode", "move_days", "bank_hours", "increment_hours", "weekends_off", "policy", "max_timeout_rate")
        templates = {row.pop("invitation__match_id"): row for row in TimeControl.objects.filter(
            invitation__match_id__in=missing).values("invitation__match_id", *fields)}
        move_days = dict(Match.objects.filter(pk__in=missing).values_list("id", "move_days"))
        made = [TimeControl(match_id=m, **{"move_days": move_days[m], **templates.get(m, {})})
                for m in missing if m in move_days]
        # One made meanwhile by another transaction wins (its row is locked below).
        TimeControl.objects.bulk_create(made, ignore_conflicts=True)
        found.update(locked(missing))
    return found


def _make_clocks_of(tcs: dict[int, TimeControl], now: datetime) -> dict[int, list[SeatClock]]:
    """The first change of these matches (or no human seat before): make their clocks, by match id."""
    if not tcs:
        return {}
    created = [SeatClock(seat=s, match_id=s.match_id, user_id=s.user_id, bank_seconds=tcs[s.match_id].bank_hours * 3600.0)
               for s in Seat.objects.filter(match_id__in=list(tcs)) if s.user_id and not s.bot]
    if not created:
        return {}
    SeatClock.objects.bulk_create(created)
    return _locked_clocks_of(sorted({c.match_id for c in created}), now)


def hand_over(match_id: int, seat: int, user_id: int) -> None:
    """A substitute took ``seat`` (matches.signals.seat_handed_over, in that transaction): the
    seat's clock is theirs now, stopped and fresh (a full bank); the follow-up of the hand-over
    starts it if the seat is to move. The leaver's timeout stays in their PlayerRecord."""
    bank = (TimeControl.objects.filter(match_id=match_id).values_list("bank_hours", flat=True).first()
            or TimeControl.objects.filter(invitation__match_id=match_id).values_list("bank_hours", flat=True).first()
            or 72)
    fresh = {"user_id": user_id, "started_at": None, "stage": 0, "next_check_at": None, "timed_out": False,
             "bank_seconds": bank * 3600.0, "moves": 0}
    seat_row = Seat.objects.only("id").get(match_id=match_id, seat=seat)
    if not SeatClock.objects.filter(seat=seat_row).update(**fresh):
        SeatClock.objects.create(seat=seat_row, match_id=match_id, **fresh)


def _turn_over(turn: _Turn, clocks: list[SeatClock], tc: TimeControl, now: datetime) -> None:
    """Which clocks stop (and the finished turns to count), which start; nothing written yet."""
    actor = turn.actor
    if actor is UNKNOWN:
        actor = None
        if turn.version:
            actor = (LogEntry.objects.filter(match_id=turn.match_id, seq=turn.version,
                                             kind__in=[LogEntry.Kind.ACTION, LogEntry.Kind.UNDO])
                     .values_list("seat", flat=True).first())
    active = set(turn.to_move) if turn.status == Match.Status.ACTIVE else set()
    usernames = {c.user_id: c.user.username for c in clocks}
    for clock in clocks:
        s = clock.seat
        clock.no_vacation_ahead = not clock.vacation_ahead
        clock.usernames = usernames
        runs = s.seat in active and s.user_id and not s.bot and not s.resigned
        acted = actor is not None and actor == s.seat
        fields = set()
        if clock.started_at is not None and (not runs or acted):
            used = _stop(clock, tc, now, acted)
            if acted:
                turn.moves.append((clock.user_id, round(used)))
            fields |= {"started_at", "bank_seconds", "stage", "next_check_at", "deadline", "moves"}
        if runs and clock.started_at is None:
            clock.started_at, clock.stage = now, 0
            _schedule(clock, tc, now)
            fields |= {"started_at", "stage", "next_check_at", "deadline"}
            if not acted:
                turn.started.append(clock)
        if fields:
            turn.changed.append((clock, fields))
    if turn.status != Match.Status.ACTIVE:
        turn.finished_users = [c.user_id for c in clocks]


def _write_turns(turns: list[_Turn]) -> None:
    """The clocks that changed in one statement (PostgreSQL; the union of the fields: the rows
    are locked), then the players' records."""
    changed = [pair for turn in turns for pair in turn.changed]
    if changed:
        plainsql.update_each([clock for clock, _fields in changed], set().union(*(f for _c, f in changed)))
    _count_moves([move for turn in turns for move in turn.moves])
    for turn in turns:
        if turn.finished_users:
            _count_finished_game(turn.finished_users)


def _advance_version(match_id: int, version: int) -> TimeControl | None:
    """Record ``version`` as applied if it is newer than the last one; the time control (its
    row now locked) if so, else None (older or repeated version, or no time control yet).
    One statement where the database returns updated rows (PostgreSQL, SQLite >= 3.35)."""
    if not connection.features.can_return_columns_from_insert or connection.vendor not in ("postgresql", "sqlite"):
        if TimeControl.objects.filter(match_id=match_id, version__lt=version).update(version=version):
            return TimeControl.objects.get(match_id=match_id)
        return None
    opts, qn = TimeControl._meta, connection.ops.quote_name
    columns = [opts.get_field(f).column for f in _TC_FIELDS]
    with plainsql.cursor() as cursor:
        cursor.execute(f"UPDATE {qn(opts.db_table)} SET {qn('version')} = %s WHERE {qn('match_id')} = %s "
                       f"AND {qn('version')} < %s RETURNING {', '.join(qn(c) for c in columns)}",
                       [version, match_id, version])
        row = cursor.fetchone()
    return None if row is None else _tc_from(match_id, version, row)


def _tc_from(match_id: int, version: int, row) -> TimeControl:
    values = dict(zip(_TC_FIELDS, row))
    values["weekends_off"] = bool(values["weekends_off"])  # SQLite says 0/1
    return TimeControl(match_id=match_id, version=version, **values)


@lru_cache(maxsize=2)
def _advance_versions_sql(vendor: str) -> str:
    # The rows are locked in match order first (two workers' batches that share matches then
    # wait for each other instead of deadlocking); FOR UPDATE re-checks "version < new" on a
    # row another transaction changed meanwhile.
    opts, qn = TimeControl._meta, connection.ops.quote_name
    table, columns = qn(opts.db_table), [qn(opts.get_field(f).column) for f in _TC_FIELDS]
    match_type, version_type = (opts.get_field(f).cast_db_type(connection) for f in ("match", "version"))
    return (f"WITH v (m, ver) AS (SELECT * FROM unnest(%s::{match_type}[], %s::{version_type}[])), "
            f"locked AS (SELECT t.{qn('id')} AS id, v.ver FROM {table} t JOIN v ON t.{qn('match_id')} = v.m "
            f"WHERE t.{qn('version')} < v.ver ORDER BY t.{qn('match_id')} FOR UPDATE OF t) "
            f"UPDATE {table} SET {qn('version')} = locked.ver FROM locked WHERE {table}.{qn('id')} = locked.id "
            f"RETURNING {table}.{qn('match_id')}, {', '.join(f'{table}.{c}' for c in columns)}")


def _advance_versions(pairs: list[tuple[int, int]]) -> dict[int, TimeControl]:
    """``_advance_version`` for several matches (each once): the time controls that advanced,
    by match id. One statement on PostgreSQL."""
    if not pairs:
        return {}
    if connection.vendor != "postgresql" or len(pairs) == 1:
        found = {match_id: _advance_version(match_id, version) for match_id, version in pairs}
        return {match_id: tc for match_id, tc in found.items() if tc is not None}
    version_of = dict(pairs)
    with plainsql.cursor() as cursor:
        cursor.execute(_advance_versions_sql(connection.vendor), [list(version_of), list(version_of.values())])
        rows = cursor.fetchall()
    return {row[0]: _tc_from(row[0], version_of[row[0]], row[1:]) for row in rows}


def _locked_clocks(match_id: int, now: datetime) -> list[SeatClock]:
    return _locked_clocks_of([match_id], now).get(match_id, [])


def _locked_clocks_of(match_ids: list[int], now: datetime) -> dict[int, list[SeatClock]]:
    """The matches' clocks (by match id), locked, ordered by seat, with what the follow-up needs
    read along: the seat, the user (profile; notification preference and whether they have push
    subscriptions: notify() need not ask) and whether any vacation of the player ends after
    the turn's start (if not, none is read). One plain statement: built by the ORM (four
    select_related, two annotations) it cost more CPU than all the rest of the follow-up's reads."""
    if not match_ids:
        return {}
    from django.contrib.auth import get_user_model

    from accounts.models import Profile
    from notifications.models import Preference, PushSubscription

    User = get_user_model()
    qn = connection.ops.quote_name
    parts = [(SeatClock, "c"), (Seat, "s"), (User, "u"), (Profile, "p"), (Preference, "n")]
    table = {model: qn(model._meta.db_table) for model, _alias in parts}
    vacations, pushes = qn(Vacation._meta.db_table), qn(PushSubscription._meta.db_table)
    locking = " FOR UPDATE OF c" if connection.features.has_select_for_update_of else ""
    sql = (f"SELECT {', '.join(plainsql.columns(model, alias) for model, alias in parts)}, "
           f"EXISTS (SELECT 1 FROM {vacations} v WHERE v.{qn('user_id')} = c.{qn('user_id')} "
           f"AND v.{qn('end')} > COALESCE(c.{qn('started_at')}, %s)), "
           f"EXISTS (SELECT 1 FROM {pushes} h WHERE h.{qn('user_id')} = c.{qn('user_id')}) "
           f"FROM {table[SeatClock]} c JOIN {table[Seat]} s ON s.{qn('id')} = c.{qn('seat_id')} "
           f"JOIN {table[User]} u ON u.{qn('id')} = c.{qn('user_id')} "
           f"LEFT JOIN {table[Profile]} p ON p.{qn('user_id')} = u.{qn('id')} "
           f"LEFT JOIN {table[Preference]} n ON n.{qn('user_id')} = u.{qn('id')} "
           f"WHERE c.{qn('match_id')} {_in_list(len(match_ids))}{locking}")
    with plainsql.cursor() as cursor:
        cursor.execute(sql, [now, *_in_params(match_ids)])
        rows = cursor.fetchall()
    clocks = []
    for row in rows:
        at, built = 0, []
        for model, _alias in parts:
            n = plainsql.width(model)
            built.append(plainsql.build(model, row[at:at + n]))
            at += n
        clock, seat, user, profile, preference = built
        clock.seat, clock.user = seat, user  # (the related-object caches, as select_related fills them)
        User.profile.related.set_cached_value(user, profile)
        User.notification_preference.related.set_cached_value(user, preference)
        clock.vacation_ahead, clock.has_push = bool(row[at]), bool(row[at + 1])
        clocks.append(clock)
    by_match: dict[int, list[SeatClock]] = {}
    for clock in sorted(clocks, key=lambda c: c.seat.seat):  # (ORDER BY in SQL: 0.2 ms more CPU)
        by_match.setdefault(clock.match_id, []).append(clock)
    return by_match


def _in_list(n: int) -> str:
    """``= ANY(%s)`` with one array on PostgreSQL (one statement text for any count, so psycopg
    prepares it), else ``IN (%s, …)``."""
    return "= ANY(%s)" if connection.vendor == "postgresql" else f"IN ({', '.join(['%s'] * n)})"


def _in_params(values: list) -> list:
    return [list(values)] if connection.vendor == "postgresql" else list(values)


def _stop(clock: SeatClock, tc: TimeControl, now: datetime, acted: bool) -> float:
    """Stops the clock; the seconds the turn used (the caller counts a finished turn)."""
    used = status(clock, tc, now)["used"]
    if tc.mode == TimeControl.Mode.BANK:
        clock.bank_seconds = max(0.0, clock.bank_seconds - used) + (tc.increment_hours * 3600.0 if acted else 0)
    if acted:
        clock.moves += 1
    clock.started_at, clock.next_check_at, clock.deadline, clock.stage = None, None, None, 0
    return used


# The players' records after finished turns: each record is made with its turns, or moves + n
# and the turns' seconds appended to ``recent``, only the last PlayerRecord.RECENT kept. An
# upsert per database: on PostgreSQL one statement for all players (jsonb), on SQLite one per
# turn (JSON1); elsewhere read and write under the row lock. Plain SQL: the statement is the
# database's own either way, and building it in the ORM cost more CPU than running it.
_RECENT_SQL = {
    "sqlite": ("json_array(%s)",
               "(SELECT json_group_array(j.value) FROM json_each(json_insert({col}, '$[#]', %s)) AS j "
               "WHERE j.key > json_array_length({col}) - %s)"),
}


@lru_cache(maxsize=4)
def _count_move_sql(vendor: str) -> str:
    first, appended = _RECENT_SQL[vendor]
    qn, table = connection.ops.quote_name, connection.ops.quote_name(PlayerRecord._meta.db_table)
    recent = f"{table}.{qn('recent')}"
    return (f"INSERT INTO {table} ({qn('user_id')}, {qn('moves')}, {qn('timeouts')}, {qn('games')}, "
            f"{qn('recent')}) VALUES (%s, 1, 0, 0, {first}) ON CONFLICT ({qn('user_id')}) DO UPDATE SET "
            f"{qn('moves')} = {table}.{qn('moves')} + 1, {qn('recent')} = {appended.format(col=recent)}")


@lru_cache(maxsize=2)
def _count_moves_sql(vendor: str) -> str:
    # In user order, so two transactions that count the same players lock their rows in one order.
    qn, table = connection.ops.quote_name, connection.ops.quote_name(PlayerRecord._meta.db_table)
    user_type = PlayerRecord._meta.get_field("user").cast_db_type(connection)
    recent = f"{table}.{qn('recent')}"
    return (f"INSERT INTO {table} ({qn('user_id')}, {qn('moves')}, {qn('timeouts')}, {qn('games')}, {qn('recent')}) "
            f"SELECT x.u, x.n, 0, 0, x.r::jsonb FROM unnest(%s::{user_type}[], %s::integer[], %s::text[]) "
            f"AS x(u, n, r) ORDER BY x.u ON CONFLICT ({qn('user_id')}) DO UPDATE SET "
            f"{qn('moves')} = {table}.{qn('moves')} + EXCLUDED.{qn('moves')}, {qn('recent')} = "
            f"(SELECT COALESCE(jsonb_agg(t.e ORDER BY t.i), '[]'::jsonb) FROM jsonb_array_elements("
            f"{recent} || EXCLUDED.{qn('recent')}) WITH ORDINALITY AS t(e, i) "
            f"WHERE t.i > jsonb_array_length({recent}) + jsonb_array_length(EXCLUDED.{qn('recent')}) - %s)")


def _count_moves(moves: list[tuple[int, int]]) -> None:
    """Count finished turns, (user id, seconds) each, in their order."""
    if not moves:
        return
    if connection.vendor != "postgresql":
        for user_id, seconds in moves:
            _count_move(user_id, seconds)
        return
    per_user: dict[int, list[int]] = {}
    for user_id, seconds in moves:
        per_user.setdefault(user_id, []).append(seconds)
    users = sorted(per_user)
    with plainsql.cursor() as cursor:
        cursor.execute(_count_moves_sql(connection.vendor), [
            users, [len(per_user[u]) for u in users],
            [json.dumps(per_user[u][-PlayerRecord.RECENT:]) for u in users], PlayerRecord.RECENT])


def _count_move(user_id: int, seconds: int) -> None:
    if connection.vendor in _RECENT_SQL:
        with plainsql.cursor() as cursor:
            cursor.execute(_count_move_sql(connection.vendor), [user_id, seconds, seconds, PlayerRecord.RECENT])
        return
    record = PlayerRecord.objects.select_for_update().filter(user_id=user_id).first()
    if record is None:
        record, created = PlayerRecord.objects.get_or_create(user_id=user_id,
                                                             defaults={"moves": 1, "recent": [seconds]})
        if created:
            return
        record = PlayerRecord.objects.select_for_update().get(pk=record.pk)
    record.moves += 1
    record.recent = (record.recent + [seconds])[-PlayerRecord.RECENT:]
    record.save(update_fields=["moves", "recent"])


def _count_finished_game(user_ids: list[int]) -> None:
    for user_id in set(user_ids):
        record, _created = PlayerRecord.objects.select_for_update().get_or_create(user_id=user_id)
        record.games += 1
        record.save(update_fields=["games"])


# --- the sweep: reminders, automatic vacation, timeouts ---------------------------------------------
def sweep(now: datetime | None = None, limit: int = 500) -> dict:
    """Handle every clock whose next reminder or timeout is due. Safe to run concurrently and
    repeatedly (each clock is checked under its row lock and only acts on a due stage)."""
    now = now or timezone.now()
    due = list(SeatClock.objects.filter(next_check_at__lte=now, started_at__isnull=False)
               .order_by("next_check_at").values_list("id", flat=True)[:limit])
    counts = {"reminders": 0, "vacations": 0, "timeouts": 0}
    # Substitute offers whose time is up first: a seat a timeout of this run frees is offered anew.
    from lobby.substitutes import expire as expire_substitute_offers

    try:
        if expired := expire_substitute_offers(now):
            counts["substitute_offers"] = expired
    except Exception:
        logger.exception("substitute offers: expiry failed")
    for clock_id in due:
        try:
            for key in check(clock_id, now):
                counts[key] += 1
        except Exception:  # one broken match must not stop the others' clocks
            logger.exception("clock %s: check failed", clock_id)
    # The rules' own short deadlines (Der Orden's reaction window) run on the same sweep.
    from matches.orders import answer_overdue
    from matches.services import apply_timed_defaults, end_overdue_matches

    for key, job in (("ordered_answers", answer_overdue), ("timed_defaults", apply_timed_defaults),
                     ("time_limits", end_overdue_matches)):
        try:
            done = job(now)
            if done:
                counts[key] = done
        except Exception:
            logger.exception("%s failed", key)
    return counts


def check(clock_id: int, now: datetime) -> list[str]:
    from notifications.services import notify

    done = []
    with transaction.atomic():
        clock = (SeatClock.objects.select_for_update(of=("self",)).select_related("user__profile", "seat")
                 .filter(pk=clock_id).first())
        if clock is None or clock.started_at is None or clock.next_check_at is None or clock.next_check_at > now:
            return done
        tc = _time_control(clock.match_id)
        st = status(clock, tc, now)
        # Past the deadline (a vacation starting exactly at it leaves used == budget: not past).
        while st["used"] > st["budget"]:
            vacation = _auto_vacation(clock.user_id, st["deadline"], now)
            if vacation is None:
                break
            done.append("vacations")
            notify(clock.user, "vacation_auto", _context(clock, {"until": vacation.end.isoformat()}),
                   key=f"vacation:{vacation.pk}", match_id=clock.match_id, level=clock.seat.notify_level)
            _reschedule_user(clock.user_id, now, exclude=clock.pk)
            st = status(clock, tc, now)
        share = st["used"] / st["budget"] if st["budget"] else 1.0
        if st["used"] > st["budget"]:
            _time_out(clock, tc, now)
            done.append("timeouts")
        else:
            stage = sum(1 for r in conf.REMINDERS if share >= r)
            if stage > clock.stage:
                clock.stage = stage
                done.append("reminders")
                notify(clock.user, "reminder", _context(clock, {
                    "deadline": st["deadline"].isoformat(), "hours_left": round((st["budget"] - st["used"]) / 3600)}),
                    key=f"reminder:{clock.pk}:{clock.started_at.timestamp():.0f}:{stage}", match_id=clock.match_id,
                    level=clock.seat.notify_level)
            _schedule(clock, tc, now)
            clock.save(update_fields=["stage", "next_check_at", "deadline"])
    return done


def _time_out(clock: SeatClock, tc: TimeControl, now: datetime) -> None:
    from matches import services as match_services
    from notifications.services import notify

    clock.stage, clock.timed_out, clock.started_at, clock.next_check_at, clock.deadline = 3, True, None, None, None
    clock.save(update_fields=["stage", "timed_out", "started_at", "next_check_at", "deadline"])
    record, _created = PlayerRecord.objects.select_for_update().get_or_create(user_id=clock.user_id)
    record.timeouts += 1
    record.save(update_fields=["timeouts"])
    try:  # the same transaction: the clock is marked timed out if and only if the policy applied
        match_services.forfeit(clock.match_id, clock.seat.seat, "timeout",
                               keep_place=tc.policy == TimeControl.Policy.BOT)
    except MatchError:
        return  # the match ended meanwhile
    ctx = _context(clock, {"player": clock.user.username, "policy": tc.policy})
    for seat in Seat.objects.filter(match_id=clock.match_id, user__isnull=False).select_related("user"):
        notify(seat.user, "timeout", ctx, key=f"timeout:{clock.pk}", match_id=clock.match_id, level=seat.notify_level)


def _context(clock: SeatClock, extra: dict) -> dict:
    from notifications.services import match_context

    return {**match_context(clock.match_id, clock.user_id), **extra}


# --- vacations --------------------------------------------------------------------------------------
def vacation_days_used(user_id: int, year: int) -> float:
    return sum(v.days for v in Vacation.objects.filter(user_id=user_id, start__year=year))


def vacation_days_left(user_id: int, now: datetime | None = None) -> float:
    now = now or timezone.now()
    return max(0.0, conf.VACATION_DAYS_PER_YEAR - vacation_days_used(user_id, now.year))


def _auto_vacation(user_id: int, at: datetime, now: datetime) -> Vacation | None:
    """One day of the allowance, from the moment the clock would have run out."""
    if vacation_days_left(user_id, at) < 1:
        return None
    current = Vacation.objects.filter(user_id=user_id, start__lte=at, end__gt=at).first()
    if current is not None:
        return None  # the clock already stands still here; nothing to add
    return Vacation.objects.create(user_id=user_id, start=at, end=at + timedelta(days=1), auto=True)


def take_vacation(user, start: datetime, days: int, now: datetime | None = None) -> Vacation:
    """Take ``days`` of the allowance from ``start`` (not in the past); the clocks stand still."""
    now = now or timezone.now()
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise VacationError(_("A vacation lasts at least one whole day."))
    start = max(start, now)
    end = start + timedelta(days=days)
    with transaction.atomic():
        left = vacation_days_left(user.id, start)
        if days > left:
            raise VacationError(ngettext("You have %(days)s vacation day left this year.",
                                         "You have %(days)s vacation days left this year.", int(left))
                                % {"days": int(left)})
        if Vacation.objects.filter(user=user, start__lt=end, end__gt=start).exists():
            raise VacationError(_("This overlaps a vacation you have already taken."))
        vacation = Vacation.objects.create(user=user, start=start, end=end)
        _reschedule_user(user.id, now)
    return vacation


def cancel_vacation(user, vacation_id: int, now: datetime | None = None) -> None:
    """A vacation that has not begun can be cancelled (the days return to the allowance)."""
    now = now or timezone.now()
    with transaction.atomic():
        deleted, _rows = Vacation.objects.filter(user=user, pk=vacation_id, start__gt=now, auto=False).delete()
        if not deleted:
            raise VacationError(_("Only a vacation that has not begun can be cancelled."))
        _reschedule_user(user.id, now)


def _reschedule_user(user_id: int, now: datetime, exclude: int | None = None) -> None:
    for clock in (SeatClock.objects.select_for_update(of=("self",)).select_related("user__profile")
                  .filter(user_id=user_id, started_at__isnull=False).exclude(pk=exclude)):
        _schedule(clock, _time_control(clock.match_id), now)
        clock.save(update_fields=["next_check_at", "deadline"])


def on_vacation(user_ids, now: datetime | None = None) -> dict[int, Vacation]:
    now = now or timezone.now()
    return {v.user_id: v for v in Vacation.objects.filter(user_id__in=list(user_ids), start__lte=now, end__gt=now)}


# --- who may join -----------------------------------------------------------------------------------
def requirement_error(invitation_id: int, user_id: int) -> str | None:
    """Why the user may not join (None: they may)."""
    tc = TimeControl.objects.filter(invitation_id=invitation_id).only("max_timeout_rate").first()
    if tc is None or tc.max_timeout_rate is None:
        return None
    record = PlayerRecord.objects.filter(user_id=user_id).first()
    rate = record.timeout_rate if record else 0.0
    if rate > tc.max_timeout_rate:
        return _("This invitation is for players who lost at most %(limit)s of their games on time; "
                 "you lost %(rate)s.") % {"limit": f"{tc.max_timeout_rate:.0%}", "rate": f"{rate:.0%}"}
    return None
