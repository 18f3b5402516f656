"""Read-side queries with constant query counts, and the lookup the ratings app uses."""
from __future__ import annotations

from django.db.models import Count

from .models import Table, Tournament


def tournament_list(*, status: str = "", game: str = ""):
    qs = (Tournament.objects.select_related("organizer").defer("seed")
          .annotate(players=Count("entrants", distinct=True)))
    if status:
        qs = qs.filter(status=status)
    if game:
        qs = qs.filter(game=game)
    return qs.order_by("-created_at", "-id")


def my_tables(user):
    """The user's tournament matches, newest round first (one query, match and round joined)."""
    return (Table.objects.filter(match__seats__user=user)
            .select_related("round__tournament", "match").defer("match__state", "match__seed")
            .order_by("-round__created_at", "-round__number", "table"))


def is_rated_match(match_id: int) -> bool | None:
    """For the ratings app: None if the match is not a tournament match; else whether the
    tournament counts for ratings (``Tournament.rated``)."""
    return Table.objects.filter(match_id=match_id).values_list("round__tournament__rated", flat=True).first()
