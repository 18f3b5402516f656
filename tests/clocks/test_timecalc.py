"""Clock arithmetic without a database: weekends off, vacations."""
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from clocks import timecalc

UTC = ZoneInfo("UTC")
FRI_NOON = datetime(2025, 3, 7, 12, 0, tzinfo=UTC)  # a Friday


def test_weekend_does_not_count():
    weekends = timecalc.weekends("UTC", FRI_NOON, FRI_NOON + timedelta(days=10))
    monday_noon = FRI_NOON + timedelta(days=3)
    assert timecalc.elapsed(FRI_NOON, monday_noon, weekends) == 24 * 3600  # Fri 12-24 + Mon 0-12
    # One day of clock time from Friday noon runs out on Monday noon.
    assert timecalc.when_elapsed(FRI_NOON, 86400, weekends) == monday_noon


def test_weekend_in_the_players_time_zone():
    berlin = timecalc.weekends("Europe/Berlin", FRI_NOON, FRI_NOON + timedelta(days=3))
    assert berlin[0][0] == datetime(2025, 3, 7, 23, 0, tzinfo=UTC)  # Saturday 00:00 in Berlin


def test_vacation_and_weekend_overlap_count_once():
    vacation = (FRI_NOON + timedelta(hours=6), FRI_NOON + timedelta(days=2))
    blocked = timecalc.weekends("UTC", FRI_NOON, FRI_NOON + timedelta(days=10)) + [vacation]
    assert timecalc.elapsed(FRI_NOON, FRI_NOON + timedelta(days=3), blocked) == 6 * 3600 + 12 * 3600


def test_when_elapsed_is_the_inverse_of_elapsed():
    blocked = timecalc.weekends("Europe/Berlin", FRI_NOON, FRI_NOON + timedelta(days=60))
    for hours in (1, 13, 40, 100, 300):
        at = timecalc.when_elapsed(FRI_NOON, hours * 3600, blocked)
        assert abs(timecalc.elapsed(FRI_NOON, at, blocked) - hours * 3600) < 1e-6
