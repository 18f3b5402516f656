"""Read-side queries for list pages, shaped so their query count does not grow with size."""
from __future__ import annotations

from django.db.models import Q, QuerySet

from .models import Invitation


def open_invitations(user=None, *, game: str = "", players: int | None = None,
                     options: dict | None = None, host: str = "") -> QuerySet:
    """Open invitations a user may join or see, newest first. Private ones only for their
    host and invitees."""
    qs = Invitation.objects.filter(status=Invitation.Status.OPEN).select_related("host")
    if user is not None and user.is_authenticated:
        # A subquery, not a join: the join needed DISTINCT, which made PostgreSQL read and sort
        # every open invitation before the LIMIT (10,000 rows for one page).
        invited = Invitation.invitees.through.objects.filter(user=user).values("invitation_id")
        qs = qs.filter(Q(private=False) | Q(host=user) | Q(pk__in=invited))
    else:
        qs = qs.filter(private=False)
    if game:
        qs = qs.filter(game=game)
    if players:
        qs = qs.filter(players=players)
    if host:
        qs = qs.filter(host__username__iexact=host)
    for key, value in (options or {}).items():
        qs = qs.filter(**{f"options__{key}": value})
    return qs.prefetch_related("entries__user", "invitees")
