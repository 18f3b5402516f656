"""The lobby follows the matches: a seat left in a running match of 3+ players is offered to
substitutes (lobby.substitutes)."""
import logging

from django.dispatch import receiver

from matches.signals import seat_left

from . import substitutes

logger = logging.getLogger(__name__)


@receiver(seat_left, dispatch_uid="lobby.seat_left")
def offer_left_seat(sender, match_id, seat, user_id, reason, **kwargs):
    try:
        substitutes.offer_seat(match_id, seat, user_id, reason)
    except Exception:  # the departure is committed; a failed offer leaves the bot on the seat
        logger.exception("substitute offer for match %s seat %s", match_id, seat)
