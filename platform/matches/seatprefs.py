"""A player's per-match notification setting (``Seat.notify_level``): everything, only my
turn, or nothing (muted). notifications.services.notify() applies it."""
from django.utils.translation import gettext as _

from .errors import IllegalMove, NotSeated
from .models import NotifyLevel, Seat


def level(match_id: int, user) -> str:
    value = None
    if user is not None and user.is_authenticated:
        value = Seat.objects.filter(match_id=match_id, user=user).values_list("notify_level", flat=True).first()
    if value is None:
        raise NotSeated(_("Only the players of this match have notification settings for it."))
    return value


def set_level(match_id: int, user, value) -> str:
    if value not in NotifyLevel.values:
        raise IllegalMove(_("Choose one of: %(choices)s.") % {"choices": ", ".join(NotifyLevel.values)})
    if user is None or not user.is_authenticated or not Seat.objects.filter(match_id=match_id, user=user) \
            .update(notify_level=value):
        raise NotSeated(_("Only the players of this match have notification settings for it."))
    return value


def payload(value: str) -> dict:
    """The API's shape: ``muted`` (the contract) and ``level`` (which of the three)."""
    return {"muted": value == NotifyLevel.NONE, "level": value}
