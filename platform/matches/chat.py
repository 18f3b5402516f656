"""The per-match chat: seated players write, everyone who may watch the match reads. A seat
remembers the last line its user read (``Seat.chat_read``): the unread mark on the table, and
the key that lets the lines after it notify once (notifications/receivers.py)."""
import re

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from . import live
from .errors import IllegalMove, NotSeated
from .models import ChatMessage, Match, Seat
from .signals import chat_posted, chat_read

# "@name": usernames are letters, digits and @.+-_ (Django's validator); a trailing full stop
# or comma ends the sentence, not the name.
MENTION = re.compile(r"(?<![\w@])@([\w.@+-]+)")


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
    from django.apps import apps

    if apps.is_installed("moderation"):
        from moderation.rules import assert_may_chat  # a moderator's mute

        assert_may_chat(user)
    with transaction.atomic():
        message = ChatMessage.objects.create(match=match, user=user, text=text)
        # One's own line is read: it never counts as unread for its writer.
        Seat.objects.filter(match_id=match_id, user=user).update(chat_read=message.pk)
    # The id orders the lines and lets a page skip a line it already has (live.js).
    payload = line(message)
    transaction.on_commit(lambda: live.publish_chat(match_id, payload, match.players, match.public))
    transaction.on_commit(lambda: chat_posted.send(sender=ChatMessage, match_id=match_id, message_id=message.pk,
                                                   user_id=user.pk, text=text))
    return message


def line(message: ChatMessage) -> dict:
    """A line as the socket frame and the API give it."""
    return {"id": message.pk, "user": message.user.username, "text": message.text, "at": message.at}


def last_id(match_id: int) -> int:
    """The newest line's id (0 for none): a page that has fewer fetches the rest (``lines_after``)."""
    return ChatMessage.objects.filter(match_id=match_id).aggregate(m=Max("pk"))["m"] or 0


def lines_after(match_id: int, after: int, limit: int = 50, with_time: bool = False) -> list[dict]:
    """The lines after id ``after``, oldest first (at most ``limit``: a page that missed more
    reloads the list; an API client asks again after the last). One query."""
    rows = (ChatMessage.objects.filter(match_id=match_id, pk__gt=after).order_by("pk")
            .values_list("pk", "user__username", "text", "at")[:limit])
    if with_time:
        return [{"id": pk, "user": name, "text": text, "at": at} for pk, name, text, at in rows]
    return [{"id": pk, "user": name, "text": text} for pk, name, text, _at in rows]


def mentioned(text: str) -> set[str]:
    """The lower-cased names after "@" in a chat line (without a trailing full stop)."""
    return {name.rstrip(".").lower() for name in MENTION.findall(text or "")}


def unread_count(match_id: int, user) -> int:
    """Lines by others since the user last read this match's chat (0 without a seat)."""
    if user is None or not user.is_authenticated:
        return 0
    read = Seat.objects.filter(match_id=match_id, user=user).values_list("chat_read", flat=True).first()
    return 0 if read is None else unread_after(match_id, user, read)


def unread_after(match_id: int, user, read: int) -> int:
    """``unread_count`` when the seat's ``chat_read`` is known (the page has the seat): one query."""
    return ChatMessage.objects.filter(match_id=match_id, pk__gt=read).exclude(user=user).count()


def mark_read(match_id: int, user) -> bool:
    """The user has read the match's chat up to its newest line; their ``chat`` and
    ``chat_mention`` notifications of the match are read too. False without a seat."""
    newest = ChatMessage.objects.filter(match_id=match_id).aggregate(m=Max("pk"))["m"] or 0
    seats = Seat.objects.filter(match_id=match_id, user=user)
    if not seats.exists():
        return False
    seats.filter(chat_read__lt=newest).update(chat_read=newest)
    chat_read.send(sender=Match, match_id=match_id, user=user)  # notifications reads its chat notices
    return True
