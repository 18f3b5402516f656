"""Notifications for match and lobby events (the clocks app sends "your turn" and reminders).

Direction: notifications react to matches and the lobby, so this app imports their signals and
models; matches never imports notifications (tests/house/test_import_cycles.py checks it).
"""
import logging

from django.db import transaction
from django.db.models import Q
from django.db.models.signals import post_save
from django.dispatch import receiver

from lobby.models import Entry, Invitation
from lobby.signals import invitation_cancelled, invitation_created, invitation_declined
from matches.signals import (chat_posted, chat_read, match_changes, match_finished, orders_ended, premoves_dropped,
                             socket_state)

from .services import mark_match_read, mark_read_by_key, match_context, notify, notify_many, unread_groups

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
@receiver(match_changes, dispatch_uid="notifications.match_started")
def match_started(sender, changes, **kwargs):
    """Players who are not to move at the start hear that it began (the others get "your turn").
    The starts of a batch together: a tournament round starts its matches at once."""
    skip = {c["match_id"]: set(c["to_move"]) for c in changes if c.get("previous_to_move") is None}
    if skip:
        _seat_notices(list(skip), "match_started", "started:{}", skip=skip)


@receiver(match_finished, dispatch_uid="notifications.match_finished")
def game_finished(sender, match_id, **kwargs):
    _seat_notices([match_id], "match_finished", "finished:{}", place=True)


def _seat_notices(match_ids: list[int], kind: str, key: str, skip: dict[int, set] | None = None,
                  place: bool = False) -> None:
    """One notice for each seated user of the matches (but the seats in ``skip[match id]``;
    ``key`` is formatted with the match id), from one read of the seats with their profiles,
    preferences and push subscriptions, written together: a notice per seat with its own reads
    cost the worker ~50 ms a match (bench/move_profile.py --batch 10 --matches 20)."""
    from matches.models import Match, Seat

    seats = list(Seat.objects.filter(match_id__in=match_ids).order_by("match_id", "seat")
                 .select_related("user__profile", "user__notification_preference")
                 .prefetch_related("user__push_subscriptions"))
    games = dict(Match.objects.filter(pk__in=match_ids).values_list("id", "game"))
    names: dict[int, list] = {}
    for seat in seats:
        names.setdefault(seat.match_id, []).append((seat.user_id, seat.name))
    items = []
    for seat in seats:
        match_id = seat.match_id
        if not seat.user_id or seat.seat in (skip or {}).get(match_id, ()) or match_id not in games:
            continue
        context = match_context(match_id, seat.user_id, game=games[match_id], names=names[match_id])
        if place:
            context["place"] = seat.place
        items.append({"user": seat.user, "kind": kind, "context": context, "key": key.format(match_id),
                      "match_id": match_id, "level": seat.notify_level,
                      "pref": getattr(seat.user, "notification_preference", None),
                      "push_subscriptions": list(seat.user.push_subscriptions.all())})
    notify_many(items)


@receiver(chat_posted, dispatch_uid="notifications.chat_posted")
@_safe
def chat_line(sender, match_id, message_id, user_id, text, **kwargs):
    """The other seated people hear of a chat line: ``chat_mention`` for each line that names
    them (@username), else one ``chat`` per match until they read the chat (the key holds the
    last line they read, so it changes only by reading). Nothing for someone with a block
    between them and the writer, nor beyond the seat's per-match setting (notify()'s level)."""
    from django.apps import apps

    from matches.chat import mentioned
    from matches.models import Match, Seat

    seats = list(Seat.objects.filter(match_id=match_id).select_related("user").order_by("seat"))
    writer = next((s.user for s in seats if s.user_id == user_id), None)
    others = [s for s in seats if s.user_id and s.user_id != user_id and not s.bot]
    if writer is None or not others:
        return
    blocked = set()
    if apps.is_installed("community"):
        from community.models import Block

        pairs = Block.objects.filter(Q(user_id=user_id, blocked_id__in=[s.user_id for s in others]) |
                                     Q(user_id__in=[s.user_id for s in others], blocked_id=user_id))
        blocked = {b if a == user_id else a for a, b in pairs.values_list("user_id", "blocked_id")}
    names = mentioned(text)
    game = Match.objects.only("id", "game").get(pk=match_id).game
    seat_names = [(s.user_id, s.name) for s in seats]
    line = text if len(text) <= 140 else text[:139] + "…"
    for seat in others:
        if seat.user_id in blocked:
            continue
        context = {**match_context(match_id, seat.user_id, game=game, names=seat_names),
                   "player": writer.username, "line": line, "url": f"/matches/{match_id}/#chat-box"}
        if seat.user.username.lower() in names:
            notify(seat.user, "chat_mention", context, key=f"mention:{message_id}", match_id=match_id,
                   level=seat.notify_level)
        else:
            notify(seat.user, "chat", context, key=f"chat:{match_id}:{seat.chat_read}", match_id=match_id,
                   level=seat.notify_level)


@receiver(chat_read, dispatch_uid="notifications.chat_read")
def chat_was_read(sender, match_id, user, **kwargs):
    """Reading a match's chat reads its ``chat`` and ``chat_mention`` notices."""
    mark_match_read(user, match_id, kinds=("chat", "chat_mention"))


@receiver(socket_state, dispatch_uid="notifications.socket_state")
def bell_state(sender, user_id, **kwargs) -> dict:
    """What the bell shows, in the ``state`` frame of a socket that (re)connects."""
    return {"unread": unread_groups(user_id)}


def _seat_owner_notice(kind: str, key: str, match_id: int, user_id: int, game: str, count: int) -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(pk=user_id).first()
    if user is not None:
        notify(user, kind, {**match_context(match_id, user_id, game=game), "count": count}, key=key,
               match_id=match_id)


@receiver(premoves_dropped, dispatch_uid="notifications.premoves_dropped")
def premove_dropped(sender, match_id, seat, user_id, game, count, version, **kwargs):
    """The owner (only) hears that queued moves were dropped (matches/orders_follow.py)."""
    _seat_owner_notice("premove_dropped", f"premove_dropped:{match_id}:{seat}:{version}", match_id, user_id,
                       game, count)


@receiver(orders_ended, dispatch_uid="notifications.orders_ended")
def orders_ended_by_hand_over(sender, match_id, seat, user_id, game, count, version, **kwargs):
    """A substitute took the seat: its former player hears that their orders ended."""
    _seat_owner_notice("orders_ended", f"orders_ended:{match_id}:{seat}:{version}", match_id, user_id, game, count)


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
