"""Rematch in one click: a private invitation to the people of a finished match, with the same
game, options, player count, time control and substitute hours. The clicking player hosts it
and is seated (seat choices as when joining: the game's defaults unless given); the others are
named invitees and get the usual invitation notification; a player whose account is gone is
left out, and their seat is open to anyone (a public invitation). A second click by anyone returns the
open (or started) rematch instead of making another."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from frontend.forms import invitation_hooks
from matches.models import Match, Seat

from . import services
from .errors import LobbyError
from .models import Invitation


def rematch(match_id: int, user, choices: dict | None = None) -> tuple[Invitation, bool]:
    """The rematch invitation of ``match_id`` and whether this call created it."""
    with transaction.atomic():
        # The match row's lock makes two clicks at once wait for each other: one invitation.
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        seats = list(Seat.objects.filter(match_id=match_id).select_related("user").order_by("seat"))
        if match is None or not any(s.user_id == user.pk for s in seats):
            # A stranger learns nothing of a private match (the same answer as a missing one).
            raise LobbyError(_("You did not play in this match.") if match is not None and match.public
                             else _("There is no such match."), 403 if match is not None and match.public else 404)
        if match.status != Match.Status.FINISHED:
            raise LobbyError(_("A rematch can be offered once the match is over."), 409)
        existing = Invitation.objects.filter(rematch_of=match).exclude(status=Invitation.Status.CANCELLED).first()
        if existing is not None:
            return existing, False
        source = Invitation.objects.filter(match=match).first()
        others = [s.user for s in seats if s.user_id and s.user_id != user.pk]
        # A deleted (or closed) account is not invited again: its seat is open to anyone, so the
        # invitation is public (the others are still named and told).
        people = [p for p in others if p.is_active]
        bots = [s.bot for s in seats if not s.user_id and s.bot]  # seats a bot held from the start
        invitation = services.create_invitation(
            user, game=match.game, players=match.players, options=match.options, move_days=match.move_days,
            private=bool(people) and len(people) == len(others), invitees=[p.username for p in people],
            choices=choices, bots=bots,
            substitute_hours=source.substitute_hours if source else 24, rematch_of=match)
        for hooks in invitation_hooks():  # the apps' settings (the time control) as they were
            copy = getattr(hooks, "copy", None)
            if copy is not None:
                copy(match, invitation)
        return invitation, True
