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
    extractor = EXTRACTORS.get(match.game)
    if extractor is not None and not data["by_resignation"]:
        try:
            view = registry.get(match.game).engine.view(match.state, None)
            data[match.game] = extractor(match, view)
        except Exception:  # a game's view changed shape: keep the generic figures
            logger.warning("no %s statistics for match %s", match.game, match.pk, exc_info=True)
    return data


def alchemist(match: Match, view: dict) -> dict:
    final = view.get("final") or {}
    schools = {s["seat"]: s.get("school") for s in view.get("seats", [])}
    rows = [{"school": schools.get(r["seat"]), "school_points": r.get("school_points") or 0,
             "school_rank": r.get("school_rank"), "total": r.get("total") or 0, "place": r.get("place")}
            for r in sorted(final.get("seats", []), key=lambda r: r["seat"])]
    winners = {i for i, r in enumerate(rows) if r["place"] == 1}
    without = [r["total"] - r["school_points"] for r in rows]
    best_without = {i for i, v in enumerate(without) if without and v == max(without)}
    # The school decided the winner if, without school points, someone else would lead.
    decided = bool(view.get("schools")) and bool(rows) and winners != best_without
    return {"seats": rows, "schools": bool(view.get("schools")), "school_decided": decided,
            "rounds": view.get("round")}


def orden(match: Match, view: dict) -> dict:
    seats = sorted(view.get("seats", []), key=lambda s: s["seat"])
    decks = [(c or {}).get("deck_id", "custom") for c in (match.choices or [])]
    return {"paths": [s.get("path") for s in seats], "decks": decks, "rounds": view.get("round")}


EXTRACTORS = {"alchemist": alchemist, "orden": orden}
