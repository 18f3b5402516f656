"""Read-side queries for list pages: constant query counts whatever the number of matches."""
from __future__ import annotations

from collections import defaultdict

from django.apps import apps
from django.db.models import Case, DateTimeField, Exists, F, IntegerField, OuterRef, Value, When
from django.utils import translation

from games import registry

from .models import Match, Seat


def my_turn_count(user) -> int:
    return Seat.objects.filter(user=user, to_move=True, match__status=Match.Status.ACTIVE).count()


def _clocks() -> bool:
    return apps.is_installed("clocks")


def my_matches(user, *, to_move_only: bool = False, status: str | None = None, order: str | None = None):
    """The user's matches: those where it is their turn first (longest waiting first), then
    the other active ones, then finished ones, most recently changed first; ``order="deadline"``:
    the ones whose clock runs out first before all of them. Each with ``my_turn`` and
    ``deadline`` (when the user's clock in it runs out, None while it stands). Read as rows by
    ``match_rows`` (the API) and ``my_games_rows`` (the page), which fetch the seats."""
    qs = (Match.objects.filter(seats__user=user)
          # filter() before annotate() reuses the join, so this reads the user's own seat row
          # (and its clock: one LEFT JOIN, no query more)
          .annotate(my_turn=Case(When(seats__to_move=True, then=Value(1)),
                                 default=Value(0), output_field=IntegerField()),
                    deadline=F("seats__clock__deadline") if _clocks() else Value(None, DateTimeField())))
    if to_move_only:
        qs = qs.filter(my_turn=1, status=Match.Status.ACTIVE)
    if status:
        qs = qs.filter(status=status)
    active_first = Case(When(status=Match.Status.ACTIVE, then=Value(0)), default=Value(1),
                        output_field=IntegerField())
    if order == "deadline":
        return qs.order_by(F("deadline").asc(nulls_last=True), "-my_turn", active_first, "-updated_at", "-id")
    return qs.order_by("-my_turn", active_first, "-updated_at", "-id")


def with_my_turn(qs, user):
    """Any match list with ``my_turn`` (1 if ``user`` holds a seat that is to move), in the same
    query: a correlated EXISTS on the seats' (match, user) rows."""
    if user is None or not user.is_authenticated:
        return qs.annotate(my_turn=Value(0, output_field=IntegerField()))
    mine = Seat.objects.filter(match=OuterRef("pk"), user=user, to_move=True, resigned=False)
    return qs.annotate(my_turn=Case(When(Exists(mine), status=Match.Status.ACTIVE, then=Value(1)),
                                    default=Value(0), output_field=IntegerField()))


def public_matches(user, status: str | None = None):
    """Public matches, most recently changed first, with ``my_turn`` for ``user``."""
    qs = with_my_turn(Match.objects.filter(public=True), user).order_by("-updated_at")
    return qs.filter(status=status) if status else qs


_ROW_COLUMNS = ("id", "game", "status", "version", "to_move", "my_turn", "outcome", "updated_at")


def match_rows(qs, limit: int = 200, *, deadlines: bool = False) -> list[dict]:
    """The API's match list: the first ``limit`` matches of ``qs`` (annotated with ``my_turn``,
    and with ``deadline`` if ``deadlines``: ``my_matches``) with their seats, from plain column
    values in two queries — no model instances per row (see lobby.queries.invitation_rows for why)."""
    columns = _ROW_COLUMNS + (("deadline",) if deadlines else ())
    matches = list(qs.prefetch_related(None).values_list(*columns)[:limit])
    seats = _seats_of([row[0] for row in matches])
    lang = translation.get_language()
    names: dict[str, str] = {}
    rows = []
    for pk, game, status, version, to_move, my_turn, outcome, updated_at, *deadline in matches:
        if game not in names:
            names[game] = registry.display_name(game, lang)
        row = {"id": pk, "game": game, "game_name": names[game], "status": status, "version": version,
               "to_move": to_move, "my_turn": bool(my_turn),
               "seats": [{"seat": seat, "user": {"id": user_id, "username": username} if user_id else None,
                          "bot": bot or None} for seat, user_id, username, bot, _ in seats[pk]],
               "outcome": outcome, "updated_at": iso_datetime(updated_at)}
        if deadlines:
            row["deadline"] = iso_datetime(deadline[0])
        rows.append(row)
    return rows


def my_games_rows(user, limit: int = 100) -> list[dict]:
    """The "my games" page's matches (least time left first: ``my_matches`` by deadline): id,
    game, status, my_turn, updated_at, deadline, the players' names and the user's place, in two
    queries of plain values."""
    matches = list(my_matches(user, order="deadline")
                   .values_list("id", "game", "status", "my_turn", "updated_at", "deadline")[:limit])
    seats = _seats_of([row[0] for row in matches])
    return [{"id": pk, "game": game, "status": status, "my_turn": bool(my_turn), "updated_at": updated_at,
             "deadline": deadline,
             "players": [username if user_id else f"Bot ({bot})" for _, user_id, username, bot, _ in seats[pk]],
             "my_place": next((place for _, user_id, _, _, place in seats[pk] if user_id == user.id), None)}
            for pk, game, status, my_turn, updated_at, deadline in matches]


def _seats_of(match_ids: list[int]) -> dict[int, list[tuple]]:
    """Each match's seats as (seat, user_id, username, bot, place), in seat order: one query."""
    seats = defaultdict(list)
    for match_id, *seat in (Seat.objects.filter(match_id__in=match_ids).order_by("match_id", "seat")
                            .values_list("match_id", "seat", "user_id", "user__username", "bot", "place")):
        seats[match_id].append(seat)
    return seats


def iso_datetime(value, tz=None) -> str | None:
    """``value`` as the API writes datetimes (REST framework's ISO 8601: UTC as "Z"), in ``tz``
    if given (a DateTimeField: the active time zone)."""
    if value is None:
        return None
    text = (value.astimezone(tz) if tz is not None else value).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def next_match_for(user, order: str = "deadline") -> Match | None:
    """The match waiting for this user's move whose clock runs out first (matches without a
    running clock after them), or with ``order="waiting"`` the one that has waited longest."""
    seats = Seat.objects.filter(user=user, to_move=True, match__status=Match.Status.ACTIVE)
    if order == "deadline" and _clocks():
        seats = seats.order_by(F("clock__deadline").asc(nulls_last=True), "to_move_since", "match_id")
    else:
        seats = seats.order_by("to_move_since", "match_id")
    seat = seats.only("match_id").first()
    return None if seat is None else Match(pk=seat.match_id)
