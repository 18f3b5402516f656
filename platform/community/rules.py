"""The block list as the lobby and the chat ask it (hooks in lobby.services.join and
matches.chat.post). A block works both ways for joining (nobody ends up at a table with
someone they blocked, or who blocked them) and one way for chat (a blocked user cannot write
to a match where someone blocked them)."""
from __future__ import annotations

from django.db.models import Q

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
        raise LobbyError("You cannot join this invitation: a block is in place between you and a player.", 403)


def assert_may_message(user, match_id: int) -> None:
    from matches.models import Seat

    seated = Seat.objects.filter(match_id=match_id, user__isnull=False).values("user_id")
    if Block.objects.filter(user_id__in=seated, blocked_id=user.id).exists():
        raise BlockedFromChat("A player of this match has blocked you; you cannot write in its chat.")
