"""Settings of the tournaments app (read here, not in config/settings.py)."""
import os

from django.conf import settings


def _int(name: str, default: int) -> int:
    return int(getattr(settings, name, os.environ.get(name, default)))


# How often Celery beat looks for rounds past their deadline (and reminders to send).
CHECK_MINUTES = _int("TOURNAMENT_CHECK_MINUTES", 15)
# Players with an unfinished match are reminded this many hours before the round's deadline.
REMINDER_HOURS = _int("TOURNAMENT_REMINDER_HOURS", 24)
# Eiserner Thron: „Schweizer Runde: je 55 Minuten … K. o.-Runde im Finale: 120 Minuten“ — the
# final's deadline is the round's days scaled by this ratio (rounded up).
ROUND_MINUTES = 55
FINAL_MINUTES = 120
