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
    """The clocks, and "your turn" for each that started, in one transaction: a clock runs if and
    only if its player was told (a redelivered task finds the version applied and does nothing)."""
    from django.db import DatabaseError, transaction

    from notifications.services import notify

    try:
        with transaction.atomic():
            started = services.on_match_changed(match_id, version, status, to_move,
                                                actor=kwargs.get("actor", services.UNKNOWN))
            for clock in started:
                try:
                    # One "your turn" per turn: the key changes only when the player has acted (clock.moves).
                    context = _turn_context(match_id, clock, kwargs.get("seats"), kwargs.get("game"))
                    notify(clock.user, "your_turn", context,
                           key=f"turn:{match_id}:{clock.seat_id}:{clock.moves}", match_id=match_id,
                           pref=getattr(clock.user, "notification_preference", None),
                           push_subscriptions=None if clock.has_push else [], savepoint=False)
                except DatabaseError:
                    raise  # the transaction is broken: nothing of it may be kept
                except Exception:  # notify() writes nothing before it could fail like this
                    logger.exception("your-turn notification: match %s version %s", match_id, version)
    except Exception:  # the move is committed; a clock hiccup must not turn it into an error page
        logger.exception("clocks: match %s version %s", match_id, version)


def _turn_context(match_id: int, clock, seats, game) -> dict:
    """notifications.services.match_context() from what the follow-up knows: the game and the
    seats (``game``, ``seats``: from the change) and the players' names (the clocks' users);
    read as usual if a seated player has no clock or the change did not say."""
    from notifications.services import match_context

    names = None
    if seats is not None and all(user_id in clock.usernames for _seat, user_id, _bot in seats if user_id):
        names = [(user_id, clock.usernames[user_id] if user_id else f"Bot ({bot})") for _seat, user_id, bot in seats]
    return match_context(match_id, clock.user_id, game=game, names=names)


@receiver(pre_save, sender=Entry, dispatch_uid="clocks.entry_requirement")
def check_requirement(sender, instance, **kwargs):
    """Joining an invitation that asks for a record the player does not have is refused
    (lobby.services.join turns the LobbyError into a 403 with this message)."""
    if instance.pk is None and instance.user_id:
        message = services.requirement_error(instance.invitation_id, instance.user_id)
        if message:
            raise LobbyError(message, 403)
