"""Read-side queries for list pages: constant query counts whatever the number of matches."""
from __future__ import annotations

from django.db.models import Case, Exists, IntegerField, OuterRef, Prefetch, Value, When

from .models import Match, Seat


def my_turn_count(user) -> int:
    return Seat.objects.filter(user=user, to_move=True, match__status=Match.Status.ACTIVE).count()


def my_matches(user, *, to_move_only: bool = False, status: str | None = None):
    """The user's matches: those where it is their turn first (longest waiting first), then
    the other active ones, then finished ones, most recently changed first."""
    qs = (Match.objects.filter(seats__user=user)
          # filter() before annotate() reuses the join, so this reads the user's own seat row
          .annotate(my_turn=Case(When(seats__to_move=True, then=Value(1)),
                                 default=Value(0), output_field=IntegerField()))
          .defer("state", "seed")
          .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("seat"))))
    if to_move_only:
        qs = qs.filter(my_turn=1, status=Match.Status.ACTIVE)
    if status:
        qs = qs.filter(status=status)
    active_first = Case(When(status=Match.Status.ACTIVE, then=Value(0)), default=Value(1),
                        output_field=IntegerField())
    return qs.order_by("-my_turn", active_first, "-updated_at", "-id")


def with_my_turn(qs, user):
    """Any match list with ``my_turn`` (1 if ``user`` holds a seat that is to move), in the same
    query: a correlated EXISTS on the seats' (match, user) rows."""
    if user is None or not user.is_authenticated:
        return qs.annotate(my_turn=Value(0, output_field=IntegerField()))
    mine = Seat.objects.filter(match=OuterRef("pk"), user=user, to_move=True, resigned=False)
    return qs.annotate(my_turn=Case(When(Exists(mine), status=Match.Status.ACTIVE, then=Value(1)),
                                    default=Value(0), output_field=IntegerField()))


def next_match_for(user) -> Match | None:
    """The match that has waited longest for this user's move."""
    seat = (Seat.objects.filter(user=user, to_move=True, match__status=Match.Status.ACTIVE)
            .order_by("to_move_since", "match_id").only("match_id").first())
    return None if seat is None else Match(pk=seat.match_id)
