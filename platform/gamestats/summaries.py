"""A finished match's summary for the statistics: generic facts for every game plus what a
game's own statistics need, read from the final public view (read defensively: a game that
changes its view shape loses its extra figures, not its page)."""
from __future__ import annotations

import logging

from django.db import IntegrityError, transaction

from games import registry
from matches.models import LogEntry, Match

from ratings.dbwait import give_way

from .models import GameSummary

logger = logging.getLogger(__name__)


def summarize_match(match_id: int) -> bool:
    """Idempotent: one GameSummary per match (its primary key)."""
    if GameSummary.objects.filter(match_id=match_id).exists():
        return False
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    if match is None:
        return False
    data = summary(match)
    try:
        with transaction.atomic():
            give_way()
            GameSummary.objects.create(match=match, game=match.game, players=match.players,
                                       data=data, finished_at=match.finished_at)
    except IntegrityError:
        return False
    return True


def summary(match: Match) -> dict:
    outcome = match.outcome or {}
    placements = sorted(outcome.get("placements", []), key=lambda p: p["seat"])
    data = {"places": [p.get("place") for p in placements], "scores": [p.get("score") for p in placements],
            "by_resignation": bool(outcome.get("by_resignation")),
            "moves": LogEntry.objects.filter(match=match, kind=LogEntry.Kind.ACTION, undone=False).count()}
    if match.finished_at and match.created_at:
        data["days"] = (match.finished_at - match.created_at).total_seconds() / 86400
    plugin = registry.plugins().get(match.game)
    if plugin is None:
        return data
    try:  # the seat that moved first (the start player's share of wins)
        first = plugin.start_seat(plugin.setup_recorded(match.engine_version, match.players, match.options,
                                                        match.seed, match.choices))
        if first is not None:
            data["start"] = first
    except Exception:  # an old record the engine no longer sets up: no start seat then
        logger.warning("no start seat for match %s", match.pk, exc_info=True)
    if not data["by_resignation"]:
        try:  # the game's own figures (Plugin.stats_summary), under its slug
            extra = plugin.stats_summary(plugin.engine.view(match.state, None), match.choices or [])
            if extra is not None:
                data[match.game] = extra
        except Exception:  # a game's view changed shape: keep the generic figures
            logger.warning("no %s statistics for match %s", match.game, match.pk, exc_info=True)
    return data
