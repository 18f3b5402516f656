"""Read-side queries for list pages, shaped so their query count does not grow with size."""
from __future__ import annotations

from collections import defaultdict

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import registry
from games.base import BadOptions
from matches.queries import iso_datetime

from .errors import LobbyError
from .models import Entry, Invitation


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
    for key, value in _option_filters(game, options or {}).items():
        qs = qs.filter(**{f"options__{key}": value})
    return qs.prefetch_related("entries__user", "invitees")


def invited_to(user) -> QuerySet:
    """Open invitations naming ``user`` that they have neither joined nor declined, newest
    first: the "invited to me" list (two queries with their seats, whatever the count)."""
    through = Invitation.invitees.through.objects.filter(user=user).values("invitation_id")
    declined = Invitation.declined.through.objects.filter(user=user).values("invitation_id")
    return (Invitation.objects.filter(status=Invitation.Status.OPEN, pk__in=through)
            .exclude(pk__in=declined).exclude(host=user).exclude(entries__user=user)
            .select_related("host")
            .prefetch_related(Prefetch("entries", queryset=Entry.objects.select_related("user"))))


def invitations_with_status(status: str, game: str = "") -> QuerySet:
    """Public invitations in ``status`` (started, cancelled, ...), newest first: the API's
    ``?status=`` list. Private ones never show here."""
    qs = Invitation.objects.filter(status=status, private=False)
    return qs.filter(game=game) if game else qs


_ROW_COLUMNS = ("id", "game", "host_id", "host__username", "players", "seats_taken", "options", "move_days",
                "private", "status", "match_id", "comment", "created_at")


def invitation_rows(qs: QuerySet, limit: int = 200) -> list[dict]:
    """The API's invitation list: the first ``limit`` invitations of ``qs`` (whose filters decide
    who sees what) exactly as ``api.serializers.InvitationSerializer`` shows one, built from
    plain column values in three queries (invitations, their seats, the invitees of the
    private ones). No model instances and no serializer per row: with 200 rows those cost
    ~20 ms of CPU and thousands of reference cycles per request, which the garbage collector's
    full passes then paid for as p95 spikes (docs/performance.md, "API lists")."""
    invitations = list(qs.prefetch_related(None).values_list(*_ROW_COLUMNS)[:limit])
    ids = [row[0] for row in invitations]
    seats = defaultdict(list)
    for invitation_id, user_id, username, bot in (
            Entry.objects.filter(invitation_id__in=ids).order_by("joined_at", "id")
            .values_list("invitation_id", "user_id", "user__username", "bot")):
        seats[invitation_id].append({"user": {"id": user_id, "username": username} if user_id else None,
                                     "bot": bot or None})
    invitees = defaultdict(list)
    private_ids = [row[0] for row in invitations if row[8]]
    if private_ids:  # invitee names are shown on private invitations only
        for invitation_id, username in (Invitation.invitees.through.objects.filter(invitation_id__in=private_ids)
                                        .order_by("user_id").values_list("invitation_id", "user__username")):
            invitees[invitation_id].append(username)
    lang, tz = translation.get_language(), timezone.get_current_timezone()
    names: dict[str, str] = {}
    rows = []
    for (pk, game, host_id, host_name, players, seats_taken, options, move_days, private, status, match_id,
         comment, created_at) in invitations:
        if game not in names:
            names[game] = registry.display_name(game, lang)
        rows.append({"id": pk, "game": game, "game_name": names[game], "host": {"id": host_id, "username": host_name},
                     "players": players, "seats_taken": seats_taken, "options": options, "move_days": move_days,
                     "private": private, "invitees": invitees[pk] if private else [], "status": status,
                     "match": match_id, "comment": comment, "created_at": iso_datetime(created_at, tz),
                     "seats": seats[pk]})
    return rows


def _option_filters(game: str, options: dict) -> dict:
    """Only declared options, typed like the option: an API client's key goes into a JSON
    lookup, where "x__contains" would be an operator (500 on SQLite), and "3" never equals 3."""
    plugins = registry.plugins()
    declared = {}
    # The chosen game's own options first; another game's option simply matches nothing.
    for plugin in sorted(plugins.values(), key=lambda p: p.meta.slug != game):
        for option in plugin.meta.options:
            declared.setdefault(option.key, option)
    cleaned = {}
    for key, raw in options.items():
        if key not in declared:
            raise LobbyError(_("There is no option '%(key)s' to filter by.") % {"key": key})
        try:
            cleaned[key] = declared[key].clean(raw)
        except BadOptions as exc:
            raise LobbyError(exc.text(translation.get_language())) from None
    return cleaned
