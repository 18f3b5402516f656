"""Pure clock arithmetic: how much of a turn's time has run, and when a given amount will have
run, when some stretches do not count (weekends off, vacations).

A clock runs in wall time except inside *blocked* intervals; everything here works on aware
datetimes and lists of (start, end) intervals, no database.
"""
from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

Interval = tuple[datetime, datetime]


def merge(intervals: list[Interval]) -> list[Interval]:
    result: list[Interval] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if result and start <= result[-1][1]:
            result[-1] = (result[-1][0], max(result[-1][1], end))
        else:
            result.append((start, end))
    return result


def weekends(tz_name: str, start: datetime, end: datetime) -> list[Interval]:
    """Saturday 00:00 to Monday 00:00 in the player's time zone, for every weekend touching
    [start, end]."""
    tz = ZoneInfo(tz_name)
    day: date = start.astimezone(tz).date() - timedelta(days=2)
    last = end.astimezone(tz).date() + timedelta(days=1)
    found = []
    while day <= last:
        if day.weekday() == 5:
            found.append((datetime.combine(day, time(), tz), datetime.combine(day + timedelta(days=2), time(), tz)))
            day += timedelta(days=7)
        else:
            day += timedelta(days=(5 - day.weekday()) % 7 or 7)
    return found


def elapsed(start: datetime, now: datetime, blocked: list[Interval]) -> float:
    """Seconds of [start, now] that count."""
    if now <= start:
        return 0.0
    total = (now - start).total_seconds()
    for b_start, b_end in merge(blocked):
        lo, hi = max(b_start, start), min(b_end, now)
        if hi > lo:
            total -= (hi - lo).total_seconds()
    return total


def when_elapsed(start: datetime, seconds: float, blocked: list[Interval]) -> datetime:
    """The earliest moment at which ``seconds`` will have counted since ``start``."""
    at, left = start, max(seconds, 0.0)
    for b_start, b_end in merge(blocked):
        if b_end <= at:
            continue
        if b_start > at:
            run = (b_start - at).total_seconds()
            if run >= left:
                return at + timedelta(seconds=left)
            left -= run
        at = max(at, b_end)
    return at + timedelta(seconds=left)
