"""The chat's question to moderation (hook in matches.chat.post): may this user write?"""
from __future__ import annotations

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.errors import MatchError

from .models import Sanction


class Muted(MatchError):
    status, code = 403, "muted"


def active_mute(user_id: int) -> Sanction | None:
    return (Sanction.objects.filter(user_id=user_id, kind=Sanction.Kind.MUTE, lifted=False)
            .filter(Q(until__isnull=True) | Q(until__gt=timezone.now())).order_by("-until").first())


def assert_may_chat(user) -> None:
    mute = active_mute(user.pk)
    if mute is None:
        return
    if mute.until is None:
        raise Muted(_("A moderator has stopped you from writing in chats."))
    until = timezone.localtime(mute.until).strftime("%Y-%m-%d %H:%M")
    raise Muted(_("A moderator has stopped you from writing in chats until %(until)s.") % {"until": until},
                until=mute.until.isoformat())
