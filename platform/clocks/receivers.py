"""Clocks follow the matches (matches.signals, sent after commit) and guard invitations
that require a record."""
import logging

from django.db.models.signals import pre_save
from django.dispatch import receiver

from lobby.errors import LobbyError
from lobby.models import Entry
from matches.signals import match_changes, seat_handed_over

from . import services

logger = logging.getLogger(__name__)


@receiver(match_changes, dispatch_uid="clocks.match_changes")
def clocks_follow_matches(sender, changes, **kwargs):
    """The clocks, and "your turn" for each that started, in one transaction per batch: a clock
    runs if and only if its player was told (a redelivered task finds the versions applied and
    does nothing). The batch's statements are shared (clocks.services.on_matches_changed). If
    the batch fails as a whole (a deadlock with another worker's batch, say), each change is
    tried again on its own, as if it had come alone; the ones that fail then are owed
    (``PartlyFailed``) and redone by the follow-up sweep."""
    from django.db import transaction

    from matches.progress import PartlyFailed

    try:
        with transaction.atomic():
            _follow(changes)
        return
    except Exception:
        if len(changes) == 1:  # the follow-up records it as owed; the sweep redoes it
            raise
        logger.warning("clocks: a batch of %d changes failed; one by one", len(changes), exc_info=True)
    failed = []
    for change in changes:
        try:
            with transaction.atomic():
                _follow([change])
        except Exception:
            logger.exception("clocks: match %s version %s", change["match_id"], change["version"])
            failed.append(change)
    if failed:  # only these are owed (matches/progress.py redoes them)
        raise PartlyFailed(failed)


def _follow(changes: list[dict]) -> None:
    from notifications.services import notify_many

    items = []
    for change, started in services.on_matches_changed(changes):
        match_id = change["match_id"]
        answered = change.get("answered") or ()  # decisions the seat's orders took at once (matches/orders.py)
        for clock in started:
            if clock.user_id in answered:
                continue
            try:
                context = _turn_context(match_id, clock, change.get("seats"), change.get("game"))
            except Exception:  # nothing is written for it yet: the others go on
                logger.exception("your-turn notification: match %s version %s", match_id, change["version"])
                continue
            # One "your turn" per turn: the key changes only when the player has acted (clock.moves).
            items.append({"user": clock.user, "kind": "your_turn", "context": context, "match_id": match_id,
                          "key": f"turn:{match_id}:{clock.seat_id}:{clock.moves}",
                          "pref": getattr(clock.user, "notification_preference", None),
                          "level": clock.seat.notify_level,  # (the seat is read along: no query)
                          "push_subscriptions": None if clock.has_push else []})
    notify_many(items)


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


@receiver(seat_handed_over, dispatch_uid="clocks.seat_handed_over")
def clock_to_substitute(sender, match_id, seat, user_id, **kwargs):
    services.hand_over(match_id, seat, user_id)
