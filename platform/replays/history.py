"""Replays, recaps and exports of a match's log, as a given viewer may see them.

Who sees what (hidden information never reaches the wrong eyes):
- a finished match: any seat's view at any step (the end revealed everything), or the public view;
- an active match: the public view, or the viewer's own seat's view if they hold one;
  a requested other seat is ignored.
"""
from __future__ import annotations

from games.base import Plugin
from games.textnum import small_int
from matches import presenters, services
from matches.models import LogEntry, Match, Seat


def steps(match: Match) -> list[LogEntry]:
    """The log entries a replay steps through: moves that stand (undone ones and the undo
    records are left out, as the replay rebuilds states without them) and resignations."""
    return list(LogEntry.objects.filter(match=match, kind__in=[LogEntry.Kind.ACTION, LogEntry.Kind.RESIGN],
                                        undone=False).order_by("seq"))


def allowed_seat(match: Match, own: Seat | None, requested: str | None) -> int | None:
    """The seat whose view the viewer gets (None: the public view). ``requested``: a seat
    number, "public", or None for the default (one's own seat, else the public view)."""
    mine = own.seat if own is not None else None
    if match.status == Match.Status.ACTIVE:
        return None if requested == "public" else mine  # never another seat's secrets mid-game
    if requested == "public":
        return None
    if small_int(requested) is not None and small_int(requested) < match.players:
        return small_int(requested)
    return mine


def frame(match: Match, plugin: Plugin, upto: int | None, seat: int | None) -> dict:
    """The view of ``seat`` after log entry ``upto`` (None: the start)."""
    state = services.replay(match, upto=upto if upto is not None else 0)
    return plugin.engine.view(state, seat)


def export(match: Match, seats: list[Seat], own: Seat | None, plugin: Plugin, lang: str) -> dict:
    """The match's log as JSON, as far as the requester may see it (no seed, no hidden events
    of other seats while the match runs)."""
    viewer = own.seat if own is not None else None
    finished = match.status != Match.Status.ACTIVE
    names = presenters.seat_names(seats)
    entries = list(LogEntry.objects.filter(match=match).order_by("seq"))
    text = {line["seq"]: line["texts"] for line in presenters.log_lines(plugin, match, entries, viewer, lang, names)}
    return {
        "format": "spieltisch-match-log/1",
        "match": {"id": match.pk, "game": match.game, "engine_version": match.engine_version,
                  "players": match.players, "options": match.options, "status": match.status,
                  "created_at": match.created_at, "finished_at": match.finished_at,
                  "outcome": match.outcome if finished else None},
        "seats": [{"seat": s.seat, "user": s.user.username if s.user_id else None, "bot": s.bot or None,
                   "resigned": s.resigned} for s in seats],
        "viewer_seat": viewer,
        "log": [{"seq": e.seq, "kind": e.kind, "seat": e.seat,
                 "action": presenters.action_visible(plugin, e, viewer, finished), "undone": e.undone,
                 "undoes": e.undoes, "at": e.at,
                 "events": [ev for ev in e.events if presenters.event_visible(ev, viewer, finished)],
                 "text": text.get(e.seq, [])} for e in entries],
    }


def recap(log: list[dict], seat: int | None, limit: int = 30) -> list[dict]:
    """What the others did since the viewer's last move that stands, from the game page's
    visible log lines (already filtered for the viewer)."""
    if seat is None:
        return []
    last_own = max((i for i, line in enumerate(log)
                    if line["seat"] == seat and line["kind"] == LogEntry.Kind.ACTION and not line["undone"]),
                   default=-1)
    others = [line for line in log[last_own + 1:] if line["seat"] != seat and line["texts"]]
    return others[-limit:]
