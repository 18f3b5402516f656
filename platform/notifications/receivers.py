"""Notifications for match and lobby events (the clocks app sends "your turn" and reminders)."""
import logging

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from lobby.models import Entry
from matches.signals import match_changed, match_finished

from .services import match_context, notify

logger = logging.getLogger(__name__)


def _safe(fn):
    def run(*args, **kwargs):
        try:
            fn(*args, **kwargs)
        except Exception:  # the game goes on even if a notification cannot be made
            logger.exception("notification receiver %s failed", fn.__name__)
    return run


@receiver(match_changed, dispatch_uid="notifications.match_started")
@_safe
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
@_safe
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
    from games import registry

    entry = Entry.objects.select_related("invitation__host", "user").filter(pk=entry_id).first()
    if entry is None or entry.user_id == entry.invitation.host_id or entry.invitation.match_id:
        return  # the last seat started the match: the host hears that instead
    inv = entry.invitation
    meta = registry.get(inv.game).meta
    notify(inv.host, "invitation_joined", {
        "invitation": inv.pk, "player": entry.user.username, "seats": f"{inv.seats_taken}/{inv.players}",
        "game": inv.game, "game_name_en": meta.name_en, "game_name_de": meta.name_de,
        "url": f"/matches/{inv.match_id}/" if inv.match_id else f"/invitations/{inv.pk}/"},
        key=f"joined:{entry_id}")
