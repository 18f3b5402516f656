"""What the game page and a player's record show about clocks."""
from __future__ import annotations

from django.utils import timezone

from .models import PlayerRecord, SeatClock, TimeControl
from .services import on_vacation, status


def match_clocks(match, seats, now=None) -> dict | None:
    """Per seat: time left and deadline of a running clock, vacation, timeouts, usual pace.
    A fixed number of queries whatever the number of seats."""
    now = now or timezone.now()
    tc = TimeControl.objects.filter(match_id=match.pk).first()
    if tc is None:
        return None
    clocks = {c.seat_id: c for c in SeatClock.objects.filter(match_id=match.pk).select_related("user__profile")}
    user_ids = [s.user_id for s in seats if s.user_id]
    away = on_vacation(user_ids, now)
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
