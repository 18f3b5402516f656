"""Notifications for match and lobby events (the clocks app sends "your turn" and reminders)."""
import logging

from django.db import transaction
from django.db.models import Q
from django.db.models.signals import post_save
from django.dispatch import receiver

from lobby.models import Entry, Invitation
from lobby.signals import invitation_cancelled, invitation_created, invitation_declined
from matches.signals import match_changed, match_finished

from .services import mark_read_by_key, match_context, notify

logger = logging.getLogger(__name__)


def _safe(fn):
    def run(*args, **kwargs):
        try:
            fn(*args, **kwargs)
        except Exception:  # the game goes on even if a notification cannot be made
            logger.exception("notification receiver %s failed", fn.__name__)
    return run


# The match receivers raise: the follow-up runs each on its own and redoes a failed one
# (matches/progress.py); the keys make a repeat notify nobody twice.
@receiver(match_changed, dispatch_uid="notifications.match_started")
def match_started(sender, match_id, version, status, to_move, previous_to_move, **kwargs):
    """Players who are not to move at the start hear that it began (the others get "your turn")."""
    if previous_to_move is not None:
        return
    from matches.models import Seat

    for seat in Seat.objects.filter(match_id=match_id, user__isnull=False).exclude(seat__in=to_move) \
            .select_related("user"):
        notify(seat.user, "match_started", match_context(match_id, seat.user_id),
               key=f"started:{match_id}", match_id=match_id)


@receiver(match_finished, dispatch_uid="notifications.match_finished")
def game_finished(sender, match_id, **kwargs):
    from matches.models import Seat

    for seat in Seat.objects.filter(match_id=match_id, user__isnull=False).select_related("user"):
        notify(seat.user, "match_finished", {**match_context(match_id, seat.user_id), "place": seat.place},
               key=f"finished:{match_id}", match_id=match_id)


@receiver(post_save, sender=Entry, dispatch_uid="notifications.invitation_joined")
def invitation_joined(sender, instance, created, **kwargs):
    if not created or not instance.user_id:
        return
    entry_id = instance.pk
    transaction.on_commit(lambda: _joined(entry_id))


@_safe
def _joined(entry_id: int) -> None:
    entry = Entry.objects.select_related("invitation__host", "user").filter(pk=entry_id).first()
    if entry is None or entry.user_id == entry.invitation.host_id:
        return
    inv = entry.invitation
    mark_read_by_key(entry.user, f"invited:{inv.pk}")  # the invitee answered: the entry is done
    if inv.match_id:
        return  # the last seat started the match: the host hears that instead
    notify(inv.host, "invitation_joined", {
        **_invitation_context(inv), "player": entry.user.username,
        "url": f"/matches/{inv.match_id}/" if inv.match_id else f"/invitations/{inv.pk}/"},
        key=f"joined:{entry_id}")


def _invitation_context(inv: Invitation) -> dict:
    from games import registry

    meta = registry.get(inv.game).meta
    return {"invitation": inv.pk, "seats": f"{inv.seats_taken}/{inv.players}", "game": inv.game,
            "game_name_en": meta.name_en, "game_name_de": meta.name_de, "host": inv.host.username,
            "url": f"/invitations/{inv.pk}/"}


@receiver(invitation_created, dispatch_uid="notifications.invited")
@_safe
def invited(sender, invitation_id, **kwargs):
    """Each named invitee hears of a new invitation, with links to accept or decline it."""
    inv = Invitation.objects.select_related("host").filter(pk=invitation_id, status=Invitation.Status.OPEN).first()
    if inv is None:
        return  # started at once (bots filled it) or already withdrawn
    context = {**_invitation_context(inv), "comment": inv.comment,
               "decline_url": f"/invitations/{inv.pk}/#decline"}
    for user in inv.invitees.exclude(pk=inv.host_id):
        notify(user, "invited", context, key=f"invited:{inv.pk}")


@receiver(invitation_declined, dispatch_uid="notifications.invitation_declined")
@_safe
def declined(sender, invitation_id, user_id, **kwargs):
    from django.contrib.auth import get_user_model

    inv = Invitation.objects.select_related("host").get(pk=invitation_id)
    user = get_user_model().objects.get(pk=user_id)
    mark_read_by_key(user, f"invited:{inv.pk}")
    notify(inv.host, "invitation_declined", {**_invitation_context(inv), "player": user.username},
           key=f"declined:{inv.pk}:{user_id}")


@receiver(invitation_cancelled, dispatch_uid="notifications.invitation_cancelled")
@_safe
def cancelled(sender, invitation_id, **kwargs):
    """Invitees who had not declined, and players who had joined, hear it was withdrawn."""
    from django.contrib.auth import get_user_model

    inv = Invitation.objects.select_related("host").get(pk=invitation_id)
    User = get_user_model()
    waiting = User.objects.filter(Q(invited_to=inv) | Q(invitation_entries__invitation=inv)) \
        .exclude(declined_invitations=inv).exclude(pk=inv.host_id).distinct()
    context = {**_invitation_context(inv), "url": "/my-games/"}
    for user in waiting:
        mark_read_by_key(user, f"invited:{inv.pk}")
        notify(user, "invitation_cancelled", context, key=f"cancelled:{inv.pk}")
