"""What a given user may see of a match: the seat's view, the visible log, the API payload.

Everything that leaves the server about a match goes through here, so hidden information is
filtered in one place: the engine's ``view`` for state, the events' ``to`` lists for the log.
"""
from __future__ import annotations

from django.utils import translation

from games import registry
from games.base import Plugin

from .models import LogEntry, Match, Seat


def seat_for(seats: list[Seat], user) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return next((s for s in seats if s.user_id == user.id), None)


def can_watch(match: Match, seat: Seat | None) -> bool:
    return seat is not None or match.public


def event_visible(event: dict, seat: int | None, finished: bool) -> bool:
    to = event.get("to")
    return to is None or finished or (seat is not None and seat in to)


def action_visible(plugin: Plugin, entry, seat: int | None, finished: bool):
    """A logged action as ``seat`` may see it: the game may keep parts of it from others while
    the match runs (Der Orden: which hand card was picked for a payment not yet final)."""
    if entry.action is None or finished or entry.seat == seat:
        return entry.action
    return plugin.public_action(entry.action, entry.seat, seat)


class SeatNames(list):
    """The seats' names in seat order, and ``by_user``: the seated users' names by id (the log's
    actors that still sit need no query)."""
    by_user: dict


def seat_names(seats: list[Seat]) -> list[str]:
    names = SeatNames(s.name for s in sorted(seats, key=lambda s: s.seat))
    names.by_user = {s.user_id: s.user.username for s in seats if s.user_id}
    return names


def log_lines(plugin: Plugin, match: Match, entries, seat: int | None, lang: str, names: list[str]) -> list[dict]:
    """Log entries as the viewer may see them: seq, seat, text lines, time. Each entry names the
    people as they were when it was written (``names_then``), not today's holders of the seats."""
    finished = match.status != Match.Status.ACTIVE
    lines = []
    entries = list(entries)
    then = names_then(entries, names)
    for entry, names in zip(entries, then):
        texts = []
        if entry.kind == LogEntry.Kind.UNDO:
            texts.append(_undo_text(names[entry.seat], lang))
        elif entry.kind == LogEntry.Kind.END:
            texts.append(_end_text(entry.events, lang))
        elif entry.kind == LogEntry.Kind.SEAT:
            texts.append(_substitute_text(entry.events, lang))
        elif entry.kind == LogEntry.Kind.RESIGN:
            if any(e.get("reason") for e in entry.events or []):
                texts.append(_forfeit_text(names[entry.seat], entry.events, lang))
            else:
                texts.append(_resign_text(names[entry.seat], lang))
        else:
            for event in entry.events:
                if event_visible(event, seat, finished):
                    texts.append(plugin.describe(event, names, lang))
        lines.append({"seq": entry.seq, "seat": entry.seat, "kind": entry.kind, "undone": entry.undone,
                      "texts": texts, "at": entry.at})
    return lines


def names_then(entries: list, names: list[str]) -> list[list[str]]:
    """Per entry, the seats' names when it was written: the acting seat by the entry's own
    ``actor`` (stored at write time), the other seats by the hand-over entries in ``entries``
    (before a hand-over its leaver, after it the one who joined), else today's ``names``. One
    query at most (the names of actors who no longer hold a seat)."""
    handovers = [(e.seq, ev) for e in entries if e.kind == LogEntry.Kind.SEAT
                 for ev in e.events or [] if isinstance(ev, dict) and ev.get("type") == "substitute"]
    known = dict(getattr(names, "by_user", {}))
    actor_ids = {e.actor_id for e in entries if getattr(e, "actor_id", None)} - set(known)
    if actor_ids:
        from django.contrib.auth import get_user_model

        known.update(get_user_model().objects.filter(pk__in=actor_ids).values_list("pk", "username"))
    out = []
    for entry in entries:
        now = list(names)
        if handovers:
            for seat in range(len(now)):
                later = next((ev for seq, ev in handovers if seq > entry.seq and ev.get("seat") == seat), None)
                earlier = [ev for seq, ev in handovers if seq <= entry.seq and ev.get("seat") == seat]
                if later is not None:
                    now[seat] = later.get("left_name") or now[seat]
                elif earlier:
                    now[seat] = earlier[-1].get("joined_name") or now[seat]
        if entry.seat is not None and 0 <= entry.seat < len(now):
            if getattr(entry, "actor_bot", ""):
                now[entry.seat] = f"Bot ({entry.actor_bot})"
            elif getattr(entry, "actor_id", None) in known:
                now[entry.seat] = known[entry.actor_id]
        out.append(now)
    return out


def _undo_text(name: str, lang: str) -> str:
    return f"{name} nimmt den letzten Zug zurück." if lang == "de" else f"{name} takes back their last move."


def _end_text(events: list, lang: str) -> str:
    """The platform ended the match before the rules did (matches.services.end_by_tiebreak)."""
    if lang == "de":
        return "Die Zeit für diese Partie ist abgelaufen – die Plätze entscheidet der Tiebreak des Spiels."
    return "This match's time limit has passed; the game's tie-break decides the places."


def _resign_text(name: str, lang: str) -> str:
    return f"{name} gibt auf." if lang == "de" else f"{name} resigns."


def _substitute_text(events: list, lang: str) -> str:
    """A substitute took over a left seat (matches.services.hand_over_seat)."""
    e = next((e for e in events or [] if e.get("type") == "substitute"), {})
    joined, left = e.get("joined_name") or "?", e.get("left_name") or "?"
    if lang == "de":
        return f"{joined} übernimmt als Ersatz den Platz von {left}."
    return f"{joined} takes over {left}'s seat as a substitute."


def _forfeit_text(name: str, events: list, lang: str) -> str:
    """A seat taken away by the platform (matches.services.forfeit), e.g. after a timeout."""
    bot = any(e.get("type") == "bot_takes_over" for e in events)
    if lang == "de":
        return f"{name}: Zeit abgelaufen – ein Bot spielt weiter." if bot else f"{name}: Zeit abgelaufen – scheidet aus."
    return f"{name} ran out of time; a bot plays on." if bot else f"{name} ran out of time and forfeits."


def api_payload(plugin: Plugin, match: Match, seats: list[Seat], seat: Seat | None) -> dict:
    """The JSON of GET /api/matches/{id}/ for the requesting seat (None: spectator)."""
    viewer = seat.seat if seat is not None else None
    return {
        "id": match.pk,
        "game": match.game,
        "game_name": registry.display_name(match.game, translation.get_language()),
        "status": match.status,
        "version": match.version,
        "players": match.players,
        "options": match.options,
        "move_days": match.move_days,
        "seats": [{"seat": s.seat,
                   "user": {"id": s.user_id, "username": s.user.username} if s.user_id else None,
                   "bot": s.bot or None, "resigned": s.resigned, "to_move": s.to_move}
                  for s in seats],
        "your_seat": viewer,
        "to_move": match.to_move,
        "view": plugin.engine.view(match.state, viewer),
        "outcome": match.outcome,
        "created_at": match.created_at,
        "finished_at": match.finished_at,
    }


def api_log(match: Match, entries, seat: int | None, plugin: Plugin, lang: str, names: list[str]) -> list[dict]:
    """GET /api/matches/{id}/log/: [{seq, seat, action, at}] plus the visible log text."""
    lines = {line["seq"]: line for line in log_lines(plugin, match, entries, seat, lang, names)}
    finished = match.status != Match.Status.ACTIVE
    return [{"seq": e.seq, "seat": e.seat, "kind": e.kind, "action": action_visible(plugin, e, seat, finished),
             "undone": e.undone,
             "at": e.at, "text": lines[e.seq]["texts"]} for e in entries]
