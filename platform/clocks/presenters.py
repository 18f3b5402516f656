"""What the game page and a player's record show about clocks."""
from __future__ import annotations

from django.utils import timezone

from matches.models import LogEntry, Match

from .models import PlayerRecord, SeatClock, TimeControl, Vacation
from .services import UNKNOWN, status


def match_clocks(match, seats, now=None, actor=UNKNOWN) -> dict | None:
    """Per seat: time left and deadline of a running clock, vacation, timeouts, usual pace.
    A fixed number of queries whatever the number of seats. ``actor``: the seat whose action
    made the match's version (None: none), if the caller knows it (else read when needed)."""
    now = now or timezone.now()
    tc = TimeControl.objects.filter(match_id=match.pk).first()
    if tc is None:
        return None
    clocks = SeatClock.objects.filter(match_id=match.pk)
    if tc.weekends_off:  # their weekends are in the player's time zone (services._blocked)
        clocks = clocks.select_related("user__profile")
    clocks = {c.seat_id: c for c in clocks}
    user_ids = [s.user_id for s in seats if s.user_id]
    # The follow-up that starts and stops the clocks runs in the worker a moment after a change's
    # commit; a page rendered in between (the live part pushed right after a move) shows them as
    # it will leave them, not as they were before the move.
    changes = _followed(match, seats, clocks, tc, actor) if tc.version < match.version else {}
    # One read of the vacations for both questions: who is away now (as on_vacation) and, per
    # running clock, those that end after its start (as status() would read one by one).
    since = min([now] + [c.started_at for c in clocks.values() if c.started_at is not None]
                + [when for when, _acted in changes.values()])
    ids = set(user_ids) | {c.user_id for c in clocks.values() if c.user_id}
    vacations = list(Vacation.objects.filter(user_id__in=ids, end__gt=since))  # ordered by start
    away = {v.user_id: v for v in vacations if v.user_id in user_ids and v.start <= now < v.end}
    for c in clocks.values():
        if c.started_at is not None:
            c.vacations_ahead = [(v.start, v.end) for v in vacations if v.user_id == c.user_id and v.end > c.started_at]
    for seat_id, (when, acted) in changes.items():
        clock = clocks[seat_id]
        if clock.started_at is not None:  # stops (and starts again if the seat acted and is still to move)
            if tc.mode == TimeControl.Mode.BANK:  # as services._stop counts it
                used = status(clock, tc, when)["used"]
                clock.bank_seconds = max(0.0, clock.bank_seconds - used) + (tc.increment_hours * 3600.0 if acted else 0)
            clock.started_at = None
        if getattr(clock, "starts", False):
            clock.started_at = when
            clock.vacations_ahead = [(v.start, v.end) for v in vacations if v.user_id == clock.user_id and v.end > when]
    records = {r.user_id: r for r in PlayerRecord.objects.filter(user_id__in=user_ids)}
    rows = []
    for s in seats:
        clock = clocks.get(s.pk)
        row = {"seat": s.seat, "name": s.name, "seat_is_human": bool(s.user_id), "vacation_until": away[s.user_id].end if s.user_id in away else None,
               "record": records.get(s.user_id), "timed_out": bool(clock and clock.timed_out)}
        if clock is not None and clock.started_at is not None and match.status == "active":
            st = status(clock, tc, now)
            row.update(running=True, deadline=st["deadline"], hours_left=max(0, (st["budget"] - st["used"]) / 3600))
        elif tc.mode == TimeControl.Mode.BANK and clock is not None:
            row.update(bank_hours=clock.bank_seconds / 3600)
        rows.append(row)
    return {"tc": tc, "rows": rows}


def hours(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds / 3600, 1)


def record_for(user) -> dict:
    record = PlayerRecord.objects.filter(user=user).first() or PlayerRecord(user=user)
    return {"record": record, "usual_hours": hours(record.usual_seconds), "rate_percent": round(record.timeout_rate * 100)}


def _followed(match, seats, clocks: dict, tc, actor) -> dict:
    """seat id -> (when, acted) for each clock that the follow-up of ``match.version`` stops or
    starts (services._turn_over's rule), ``starts`` marked on the clocks that will run. ``when``:
    the change's time (the follow-up stamps its own, a moment later)."""
    if actor is UNKNOWN:
        actor = (LogEntry.objects.filter(match_id=match.pk, seq=match.version,
                                         kind__in=[LogEntry.Kind.ACTION, LogEntry.Kind.UNDO])
                 .values_list("seat", flat=True).first())
    active = set(match.to_move) if match.status == Match.Status.ACTIVE else set()
    when = match.updated_at or timezone.now()
    changes = {}
    for s in seats:
        clock = clocks.get(s.pk)
        if clock is None:
            continue
        runs = s.seat in active and bool(s.user_id) and not s.bot and not s.resigned
        acted = actor is not None and actor == s.seat
        stops = clock.started_at is not None and (not runs or acted)
        clock.starts = runs and (clock.started_at is None or stops)
        if stops or clock.starts:
            changes[s.pk] = (when, acted)
    return changes
