"""The centre's calm view: one entry per match (however many turns, moves and reminders it
brought), one per other event. Reads a fixed window of rows in one query and groups them in
Python, so the page costs the same whatever the number of notifications."""
from __future__ import annotations

from .kinds import game_name, text
from .models import Notification

WINDOW = 500  # newest rows read; older ones only show up as part of nothing
PAGE = 100  # entries shown


def headline(count: int, data: dict, lang: str) -> str:
    game = f"{game_name(data, lang)} #{data['match']}" if data.get("match") else game_name(data, lang)
    if lang == "de":
        return f"{count} Neuigkeiten in {game} seit deinem letzten Blick"
    return f"{count} updates in {game} since you last looked"


def groups(user, lang: str, limit: int = PAGE) -> list[dict]:
    """Newest first. A match's entry: its newest line, how many notifications are unread
    (``unread``; > 1 gives a headline "3 updates in … since you last looked") and in all
    (``count``), and the match as its link. Other notifications stand alone."""
    rows = Notification.objects.filter(user=user).only("id", "kind", "match_id", "data", "created_at", "read_at")
    out: list[dict] = []
    by_match: dict[int, dict] = {}
    for n in rows[:WINDOW]:
        group = by_match.get(n.match_id) if n.match_id else None
        if group is None:
            group = {"id": n.pk, "kind": n.kind, "match": n.match_id, "newest": n, "count": 0, "unread": 0,
                     "ids": [], "created_at": n.created_at}
            out.append(group)
            if n.match_id:
                by_match[n.match_id] = group
        group["count"] += 1
        group["ids"].append(n.pk)
        if n.read_at is None:
            group["unread"] += 1
    for group in out[:limit]:
        newest = group.pop("newest")
        group["text"] = text(newest.kind, newest.data, lang)
        group["headline"] = headline(group["unread"], newest.data, lang) if group["unread"] > 1 else ""
        group["url"] = newest.data.get("url") or (f"/matches/{group['match']}/" if group["match"] else "")
        group["earlier"] = group["count"] - 1
    return out[:limit]
