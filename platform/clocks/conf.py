"""Settings of the clocks, from Django settings or the environment."""
import os

from django.conf import settings


def _get(name: str, default):
    value = getattr(settings, name, os.environ.get(name))
    return default if value in (None, "") else type(default)(value)


VACATION_DAYS_PER_YEAR = _get("CLOCKS_VACATION_DAYS", 14)
REMINDERS = (0.5, 0.9)  # shares of a turn's time at which the player is reminded
SWEEP_SECONDS = _get("CLOCKS_SWEEP_SECONDS", 60)  # how often beat (or the in-process loop) sweeps
# The embedded default has no beat: ``make run`` sets this so daphne runs the sweep in a thread.
IN_PROCESS = _get("SPIELTISCH_CLOCK_THREAD", 0)
