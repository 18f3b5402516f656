"""The block list as the lobby and the chat ask it (hooks in lobby.services.join and
create_invitation, and matches.chat.post). A block works both ways for joining and private
invitations (nobody ends up at a table with, or is addressed by, someone they blocked or who
blocked them) and one way for chat (a blocked user cannot write to a match where someone
blocked them)."""
from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from lobby.errors import LobbyError
from matches.errors import MatchError

from .models import Block


class BlockedFromChat(MatchError):
    status, code = 403, "blocked"


def blocked_between(user_id: int, other_ids) -> bool:
    others = [o for o in other_ids if o is not None and o != user_id]
    if not others:
        return False
    return Block.objects.filter(Q(user_id=user_id, blocked_id__in=others) |
                                Q(user_id__in=others, blocked_id=user_id)).exists()


def assert_may_join(user, invitation) -> None:
    people = [invitation.host_id, *invitation.entries.filter(user__isnull=False).values_list("user_id", flat=True)]
    if blocked_between(user.id, people):
        raise LobbyError(_("You cannot join this invitation: a block is in place between you and a player."), 403)


def assert_may_invite(host, invitees) -> None:
    """A private invitation (with its comment) reaches the invitee's lobby, so it counts as a
    message: nobody may address one to someone with a block between them."""
    ids = [u.pk for u in invitees if u.pk != host.id]
    pairs = Block.objects.filter(Q(user_id=host.id, blocked_id__in=ids) | Q(user_id__in=ids, blocked_id=host.id)) \
        .values_list("user_id", "blocked_id")
    others = {b if a == host.id else a for a, b in pairs}
    names = sorted(u.username for u in invitees if u.pk in others)
    if names:
        raise LobbyError(_("You cannot invite %(names)s: a block is in place between you.") % {"names": ", ".join(names)},
                         403)


def assert_may_message(user, match_id: int) -> None:
    from matches.models import Seat

    seated = Seat.objects.filter(match_id=match_id, user__isnull=False).values("user_id")
    if Block.objects.filter(user_id__in=seated, blocked_id=user.id).exists():
        raise BlockedFromChat(_("A player of this match has blocked you; you cannot write in its chat."))
