"""Read-side queries for list pages, shaped so their query count does not grow with size."""
from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet
from django.utils import translation
from django.utils.translation import gettext as _

from games import registry
from games.base import BadOptions

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
