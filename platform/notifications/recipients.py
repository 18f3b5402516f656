"""What a notice needs to know of the person it goes to: their language, time zone, quiet hours,
and the signed token of their unsubscribe link.

Direction: the senders (mail, push), the attention rules and ``notify`` all word and time notices
with these, so this module sits below them and imports nothing of this app but its models' types.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from django.core import signing

if TYPE_CHECKING:
    from .models import Preference

UNSUBSCRIBE_SALT = "notifications.unsubscribe"


def user_lang(user) -> str:
    profile = getattr(user, "profile", None)
    return (getattr(profile, "language", None) or "en")[:2]


def user_tz(user) -> ZoneInfo:
    profile = getattr(user, "profile", None)
    try:
        return ZoneInfo(getattr(profile, "timezone", None) or "UTC")
    except Exception:
        return ZoneInfo("UTC")


def local_time_text(dt: datetime, user) -> str:
    return dt.astimezone(user_tz(user)).strftime("%d.%m.%Y %H:%M")


def quiet_until(pref: Preference, tz: ZoneInfo, now: datetime) -> datetime | None:
    """The end of the quiet hours if ``now`` falls within them (local time), else None."""
    if pref.quiet_start is None or pref.quiet_end is None or pref.quiet_start == pref.quiet_end:
        return None
    local = now.astimezone(tz)
    t, start, end = local.time(), pref.quiet_start, pref.quiet_end
    inside = (start <= t < end) if start < end else (t >= start or t < end)
    if not inside:
        return None
    day = local.date() if t < end else local.date() + timedelta(days=1)
    return datetime.combine(day, end, tz)


def unsubscribe_token(user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return data.get("u"), data.get("k")
