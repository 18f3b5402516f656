"""Read side of ratings: rankings (one query each, whatever their length)."""
from __future__ import annotations

from django.db.models import F, FloatField, Sum
from django.db.models.functions import Cast

from . import conf
from .models import Rating

RANKING_SIZE = 200


def ranking(game: str, limit: int = RANKING_SIZE) -> list[dict]:
    """Everyone with a rated game, best conservative rating first. The shown rating is
    mu - 3·sigma, so players with few games (wide sigma) sit low until they prove more."""
    provisional = conf.provisional_games()
    rows = (Rating.objects.filter(game=game, games__gte=1).select_related("user")
            .only("shown", "games", "wins", "user__id", "user__username").order_by("-shown", "user_id")[:limit])
    return [{"rank": i, "user": r.user, "rating": round(r.shown), "games": r.games, "wins": r.wins,
             "provisional": r.games < provisional} for i, r in enumerate(rows, 1)]


def overall(limit: int = RANKING_SIZE) -> list[dict]:
    """Across games: the games-weighted mean of a player's shown ratings."""
    provisional = conf.provisional_games()
    rows = (Rating.objects.filter(games__gte=1).values("user_id", "user__username")
            .annotate(total=Sum("games"),
                      mean=Sum(F("shown") * Cast("games", FloatField())) / Cast(Sum("games"), FloatField()))
            .order_by("-mean", "user_id")[:limit])
    result = [{"user_id": r["user_id"], "username": r["user__username"], "games": r["total"], "rating": r["mean"]}
              for r in rows]
    for i, r in enumerate(result, 1):
        r["rank"], r["rating"], r["provisional"] = i, round(r["rating"]), r["games"] < provisional
    return result


def ratings_of(user) -> list[Rating]:
    return list(Rating.objects.filter(user=user).order_by("game"))
