"""Settings of the ratings app (read here so config/settings.py stays untouched)."""
import os

from django.conf import settings


def provisional_games() -> int:
    """A rating counts as provisional until a player has finished this many rated games."""
    return int(getattr(settings, "RATING_PROVISIONAL_GAMES", os.environ.get("RATING_PROVISIONAL_GAMES", 5)))
