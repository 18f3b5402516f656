"""Everything a public profile shows, in a fixed number of queries whatever the history."""
from __future__ import annotations

import logging
import statistics
from collections import defaultdict

from django.apps import apps
from django.db.models import Prefetch, Q, Subquery

from games import registry
from matches.models import LogEntry, Match, Seat
from ratings import conf as rating_conf
from ratings import skill
from ratings.models import Rating, RatingChange

from .models import Block, Friendship

logger = logging.getLogger(__name__)
MATCHES_SHOWN = 30
MOVE_TIME_MATCHES = 30  # usual time per move: from the latest matches only


def game_name(slug: str, lang: str) -> str:
    try:
        meta = registry.get(slug).meta
    except KeyError:
        return slug
    return meta.name_de if lang == "de" else meta.name_en


def results(user) -> dict:
    """Games played and won per game, and timeouts, from the seats of finished matches."""
    per_game = defaultdict(lambda: {"played": 0, "won": 0})
    timeouts = 0
    rows = Seat.objects.filter(user=user, match__status=Match.Status.FINISHED) \
        .values_list("match__game", "seat", "place", "match__outcome")
    for game, seat, place, outcome in rows:
        per_game[game]["played"] += 1
        per_game[game]["won"] += place == 1
        placement = next((p for p in (outcome or {}).get("placements", []) if p.get("seat") == seat), {})
        timeouts += bool(placement.get("timeout") or placement.get("timed_out"))
    clock_count = _clock_timeouts(user)
    return {"games": dict(per_game), "played": sum(g["played"] for g in per_game.values()),
            "won": sum(g["won"] for g in per_game.values()),
            "timeouts": clock_count if clock_count is not None else timeouts}


def _clock_timeouts(user) -> int | None:
    """The clocks app (built in parallel) keeps a per-player record with a timeout count;
    read it if it is there (one query), else the caller counts flagged placements."""
    if not apps.is_installed("clocks"):
        return None
    try:
        record_model = apps.get_model("clocks", "PlayerRecord")
        return record_model.objects.filter(user=user).values_list("timeouts", flat=True).first() or 0
    except Exception:
        logger.warning("could not read timeouts from the clocks app", exc_info=True)
        return None


def ratings(user) -> list[dict]:
    provisional = rating_conf.provisional_games()
    return [{"game": r.game, "rating": round(r.shown), "mu": r.mu, "sigma": r.sigma, "games": r.games,
             "wins": r.wins, "provisional": r.games < provisional}
            for r in Rating.objects.filter(user=user).order_by("game")]


def rating_history(user) -> dict[str, list[tuple]]:
    """Per game: (time, shown rating) points, starting from the rating before the first game."""
    history: dict[str, list[tuple]] = defaultdict(list)
    for change in RatingChange.objects.filter(user=user).order_by("at", "id").only(
            "game", "at", "shown_before", "shown_after"):
        points = history[change.game]
        if not points:
            points.append((change.at, change.shown_before))
        points.append((change.at, change.shown_after))
    return dict(history)


def usual_move_seconds(user) -> float | None:
    """Median time between the entry before one of the user's moves and that move, over the
    user's latest matches (a player's own turn starts with the previous log entry)."""
    recent = Match.objects.filter(seats__user=user).order_by("-updated_at").values("id")[:MOVE_TIME_MATCHES]
    rows = (LogEntry.objects.filter(match_id__in=Subquery(recent), match__seats__user=user)
            .values_list("match_id", "seq", "seat", "kind", "at", "match__seats__seat", "match__created_at")
            .order_by("match_id", "seq"))
    gaps, last_match, previous = [], None, None
    for match_id, seq, seat, kind, at, my_seat, started in rows:
        if match_id != last_match:
            last_match, previous = match_id, started
        if kind == LogEntry.Kind.ACTION and seat == my_seat and previous is not None:
            gaps.append((at - previous).total_seconds())
        previous = at
    return statistics.median(gaps) if gaps else None


def matches(user, viewer) -> tuple[list[Match], list[Match]]:
    """The user's current and finished matches the viewer may see (public, or seated)."""
    visible = Q(public=True)
    if viewer is not None and viewer.is_authenticated:
        visible |= Q(pk__in=Seat.objects.filter(user=viewer).values("match_id"))
    qs = (Match.objects.filter(visible, pk__in=Seat.objects.filter(user=user).values("match_id"))
          .defer("state", "seed", "choices")
          .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("seat")))
          .order_by("-updated_at", "-id"))
    current = [m for m in qs.filter(status=Match.Status.ACTIVE)[:MATCHES_SHOWN]]
    finished = [m for m in qs.filter(status=Match.Status.FINISHED)[:MATCHES_SHOWN]]
    return current, finished


def tournaments(user) -> list:
    """Tournaments the user entered, if the tournaments app (built in parallel) is there:
    any tournaments model with a user and a tournament foreign key counts as an entry."""
    if not apps.is_installed("tournaments"):
        return []
    try:
        tournament_model = apps.get_model("tournaments", "Tournament")
        user_model = user.__class__
        # Entries first: an organizer's or judge's row is not taking part.
        models = sorted(apps.get_app_config("tournaments").get_models(),
                        key=lambda m: not any(w in m.__name__.lower() for w in ("entrant", "entry", "participant")))
        for model in models:
            fks = {f.related_model: f for f in model._meta.fields if f.is_relation and f.many_to_one}
            if model is not tournament_model and user_model in fks and tournament_model in fks:
                ids = model.objects.filter(**{fks[user_model].name: user}).values(fks[tournament_model].attname)
                return list(tournament_model.objects.filter(pk__in=ids).order_by("-pk")[:20])
    except Exception:
        logger.warning("could not read tournaments", exc_info=True)
    return []


def relation(viewer, user) -> dict:
    """How the viewer stands to the profile's owner (two small queries)."""
    if viewer is None or not viewer.is_authenticated or viewer.pk == user.pk:
        return {"friend": False, "blocked": False}
    return {"friend": Friendship.objects.filter(user=viewer, friend=user).exists(),
            "blocked": Block.objects.filter(user=viewer, blocked=user).exists()}


def friends_of(user) -> list:
    return [f.friend for f in Friendship.objects.filter(user=user).select_related("friend")]


def blocked_by(user) -> list:
    return [b.blocked for b in Block.objects.filter(user=user).select_related("blocked")]


def initial_rating() -> float:
    return skill.display(*skill.initial())
