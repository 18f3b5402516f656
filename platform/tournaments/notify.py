"""Telling players about rounds. Uses the notifications app when it is installed
(``notifications.services.notify(user, kind, context, key=..., match_id=...)``); without it,
or for a kind that app does not declare, nothing is sent. Always called from
``transaction.on_commit``, so nobody hears of a round that was rolled back."""
from __future__ import annotations

import logging

from django.contrib.auth import get_user_model

log = logging.getLogger(__name__)

# Our events -> the notifications app's kinds (notifications/kinds.py).
KINDS = {"round_paired": "tournament_paired", "round_deadline": "tournament_deadline",
         "finished": "tournament_finished"}


def _sender():
    try:
        from notifications.services import notify
    except ImportError:
        return None, None
    try:
        from notifications.kinds import KINDS as declared
    except ImportError:
        declared = None
    return notify, declared


def send(user_ids, event: str, context: dict, *, key: str, match_ids: dict | None = None) -> int:
    """Notify each (human) user once per ``key``; returns how many were handed over."""
    notify, declared = _sender()
    kind = KINDS[event]
    if notify is None or not user_ids or (declared is not None and kind not in declared):
        return 0
    sent = 0
    for user in get_user_model().objects.filter(pk__in=list(user_ids)):
        match_id = (match_ids or {}).get(user.pk)
        # One click into the tournament, or straight into the player's new match.
        data = {"url": f"/tournaments/{context['tournament_id']}/", **context} if "tournament_id" in context else dict(context)
        if match_id:
            data.update(match=match_id, url=f"/matches/{match_id}/")
        try:
            notify(user, kind, data, key=f"{key}:{user.pk}", match_id=match_id)
            sent += 1
        except Exception:  # a failing channel must not break a round
            log.exception("notification %s to user %s failed", kind, user.pk)
    return sent
