"""Tells the open pages of an invitation's players that its seats changed (after commit):
the host's invitation page then reloads its seats part (frontend/static/frontend/live.js)."""
from __future__ import annotations

import json

from matches.live import _send_all, user_group


def seats_changed(invitation_id: int, user_ids: list[int], seats_taken: int) -> None:
    text = json.dumps({"type": "invitation", "invitation": invitation_id, "seats_taken": seats_taken})
    _send_all([(user_group(uid), {"type": "match.frame", "text": text}) for uid in sorted(set(user_ids))])
