"""Substitutes: a seat left (resigned, timed out) in a running match of 3+ players is offered
in the lobby (public matches) and to the players' friends for the invitation's
``substitute_hours`` (default 24) before its bot keeps it for good.

While the offer is open the bot that took the seat plays on: the others' game does not stand
still for a day because someone left (a waiting clock would add up to a day per departure to
everyone's game), and the seat is not lost on time meanwhile. A substitute who takes the offer
gets the seat from the next move on (``matches.services.hand_over_seat``: the seat, its clock,
its private view); the log keeps who played which moves. Rating: see ``ratings.services``."""
from __future__ import annotations

from datetime import timedelta
import logging

from django.apps import apps
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from matches import services as match_services
from matches.models import Match, Seat

from .errors import LobbyError
from .models import Invitation, SubstituteOffer

logger = logging.getLogger(__name__)


def offer_seat(match_id: int, seat: int, user_id: int, reason: str, now=None) -> SubstituteOffer | None:
    """Offer a left seat (``matches.signals.seat_left``, after commit). None when the match is
    not one for substitutes: fewer than 3 players, over, not from an invitation (tournaments keep
    their entrants), or its invitation says 0 hours."""
    now = now or timezone.now()
    match = Match.objects.filter(pk=match_id).only("id", "players", "status").first()
    if match is None or match.players < 3 or match.status != Match.Status.ACTIVE:
        return None
    hours = Invitation.objects.filter(match_id=match_id).values_list("substitute_hours", flat=True).first()
    if not hours:
        return None
    try:
        with transaction.atomic():
            offer = SubstituteOffer.objects.create(match_id=match_id, seat=seat, leaver_id=user_id, reason=reason,
                                                   expires_at=now + timedelta(hours=hours))
    except IntegrityError:  # already offered (a repeated signal)
        return None
    offer_id = offer.pk
    transaction.on_commit(lambda: _tell_friends(offer_id))
    return offer


def _seated_ids(match_id: int) -> list[int]:
    return list(Seat.objects.filter(match_id=match_id, user__isnull=False).values_list("user_id", flat=True))


def _friends_of_players(offer: SubstituteOffer) -> list:
    """People on a seated player's (or the leaver's) friend list, neither seated nor blocked by
    or blocking a seated player."""
    from community.models import Block, Friendship

    seated = _seated_ids(offer.match_id)
    ids = set(Friendship.objects.filter(user_id__in=[*seated, offer.leaver_id]).values_list("friend_id", flat=True))
    ids -= {*seated, offer.leaver_id}
    blocked = set(Block.objects.filter(user_id__in=seated, blocked_id__in=ids).values_list("blocked_id", flat=True)) \
        | set(Block.objects.filter(blocked_id__in=seated, user_id__in=ids).values_list("user_id", flat=True))
    from django.contrib.auth import get_user_model

    return list(get_user_model().objects.filter(pk__in=ids - blocked, is_active=True))


def _tell_friends(offer_id: int) -> None:
    if not apps.is_installed("notifications"):
        return
    from notifications.services import match_context, notify

    offer = SubstituteOffer.objects.select_related("match").filter(pk=offer_id).first()
    if offer is None:
        return
    for friend in _friends_of_players(offer):
        try:
            context = {**match_context(offer.match_id, friend.pk, game=offer.match.game),
                       "url": f"/substitutes/{offer.pk}/", "seat": offer.seat + 1,
                       "until": offer.expires_at.isoformat()}
            # No match_id: the friend does not play there (the centre would group it under the match).
            notify(friend, "substitute_wanted", context, key=f"substitute:{offer.pk}")
        except Exception:  # one friend's notification must not keep the others from theirs
            logger.exception("substitute offer %s: notifying %s", offer_id, friend.pk)


def may_see(offer: SubstituteOffer, user) -> bool:
    """A public match's offer is in the lobby for everyone; a private one only for the players'
    friends (who were told). Nothing private is on an offer: game, seat number, players."""
    if offer.match.public:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    from community.models import Friendship

    people = [*_seated_ids(offer.match_id), offer.leaver_id]
    return user.pk in people or Friendship.objects.filter(user_id__in=people, friend_id=user.pk).exists()


def take(offer_id: int, user, now=None) -> SubstituteOffer:
    """``user`` takes the offered seat. 409 when it is gone (taken, expired, the match over)."""
    now = now or timezone.now()
    with transaction.atomic():
        offer = SubstituteOffer.objects.select_for_update(of=("self",)).select_related("match") \
            .filter(pk=offer_id).first()
        if offer is None or not may_see(offer, user):
            raise LobbyError(_("There is no such offer."), 404)
        if offer.status != SubstituteOffer.Status.OPEN or offer.expires_at <= now \
                or offer.match.status != Match.Status.ACTIVE:
            raise LobbyError(_("This seat is no longer offered."), 409)
        if offer.leaver_id == user.pk:
            raise LobbyError(_("You left this seat; you cannot come back as its substitute."), 403)
        from community.rules import blocked_between  # the block list (platform/community)

        if blocked_between(user.pk, _seated_ids(offer.match_id)):
            raise LobbyError(_("You cannot take this seat: a block is in place between you and a player."), 403)
        match_services.hand_over_seat(offer.match_id, offer.seat, user)
        offer.status, offer.substitute, offer.taken_at = SubstituteOffer.Status.TAKEN, user, now
        offer.save(update_fields=["status", "substitute", "taken_at"])
        return offer


def expire(now=None) -> int:
    """Close the offers whose time is up (the bot keeps the seat for good) or whose match ended.
    Run by the clock sweep; idempotent. Returns how many closed."""
    now = now or timezone.now()
    open_ = SubstituteOffer.objects.filter(status=SubstituteOffer.Status.OPEN)
    expired = open_.filter(expires_at__lte=now).update(status=SubstituteOffer.Status.EXPIRED)
    closed = open_.filter(~Q(match__status=Match.Status.ACTIVE)).update(status=SubstituteOffer.Status.CLOSED)
    return expired + closed


def open_offers(user=None, now=None):
    """The lobby's "substitute wanted": open offers of public running matches, soonest to expire
    first, with what the list shows (one query, seats and their users prefetched: two more)."""
    now = now or timezone.now()
    qs = (SubstituteOffer.objects.filter(status=SubstituteOffer.Status.OPEN, expires_at__gt=now,
                                         match__status=Match.Status.ACTIVE, match__public=True)
          .select_related("match").prefetch_related("match__seats__user").order_by("expires_at", "id"))
    if user is not None and user.is_authenticated:
        qs = qs.exclude(leaver_id=user.pk).exclude(match__seats__user=user)
        # Not offered across a block (either way): subqueries of the same statement.
        qs = qs.exclude(match__seats__user__blocks__blocked=user).exclude(match__seats__user__blocked_by__user=user)
    return qs


def waiting_seats(match_id: int, now=None) -> list[SubstituteOffer]:
    """The match page: seats waiting for a substitute (open, not expired)."""
    now = now or timezone.now()
    return list(SubstituteOffer.objects.filter(match_id=match_id, status=SubstituteOffer.Status.OPEN,
                                               expires_at__gt=now))
