"""The per-match chat: seated players write, everyone who may watch the match reads."""
from django.db import transaction
from django.utils.translation import gettext as _

from . import live
from .errors import IllegalMove, NotSeated
from .models import ChatMessage, Match, Seat


def post(match_id: int, user, text: str) -> ChatMessage:
    text = (text or "").strip()
    if not text:
        raise IllegalMove(_("A chat message cannot be empty."))
    if len(text) > 500:
        raise IllegalMove(_("A chat message can be at most 500 characters long."))
    match = Match.objects.filter(pk=match_id).only("id", "players", "public").first()
    if match is None or not Seat.objects.filter(match_id=match_id, user=user).exists():
        raise NotSeated(_("Only the players of this match can write in its chat."))
    from community.rules import assert_may_message  # the block list (platform/community)

    assert_may_message(user, match_id)
    message = ChatMessage.objects.create(match=match, user=user, text=text)
    payload = {"user": user.username, "text": text, "at": message.at}
    transaction.on_commit(lambda: live.publish_chat(match_id, payload, match.players, match.public))
    return message
