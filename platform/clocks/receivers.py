"""Clocks follow the matches (matches.signals, sent after commit) and guard invitations
that require a record."""
import logging

from django.db.models.signals import pre_save
from django.dispatch import receiver

from lobby.errors import LobbyError
from lobby.models import Entry
from matches.signals import match_changed

from . import services

logger = logging.getLogger(__name__)


@receiver(match_changed, dispatch_uid="clocks.match_changed")
def clocks_follow_match(sender, match_id, version, status, to_move, previous_to_move, **kwargs):
    from notifications.services import match_context, notify

    try:
        started = services.on_match_changed(match_id, version, status, to_move)
    except Exception:  # the move is committed; a clock hiccup must not turn it into an error page
        logger.exception("clocks: match %s version %s", match_id, version)
        return
    for clock in started:
        # One "your turn" per turn: the key changes only when the player has acted (clock.moves).
        notify(clock.user, "your_turn", match_context(match_id, clock.user_id),
               key=f"turn:{match_id}:{clock.seat_id}:{clock.moves}", match_id=match_id)


@receiver(pre_save, sender=Entry, dispatch_uid="clocks.entry_requirement")
def check_requirement(sender, instance, **kwargs):
    """Joining an invitation that asks for a record the player does not have is refused
    (lobby.services.join turns the LobbyError into a 403 with this message)."""
    if instance.pk is None and instance.user_id:
        message = services.requirement_error(instance.invitation_id, instance.user_id)
        if message:
            raise LobbyError(message, 403)
