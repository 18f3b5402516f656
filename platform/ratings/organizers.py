"""Does the organizer of a match's tournament want it rated? Read defensively: the
tournaments app is built in parallel and may not exist (or not link matches) yet. Looks for
a tournaments model that points at the match, then for its Tournament and its ``rated``."""
from __future__ import annotations

import logging

from django.apps import apps

logger = logging.getLogger(__name__)


def tournament_allows_rating(match) -> bool:
    if not apps.is_installed("tournaments"):
        return True
    try:
        return _allows(match)
    except Exception:  # never let a half-built neighbour stop ratings
        logger.warning("could not read the tournament of match %s", match.pk, exc_info=True)
        return True


def _allows(match) -> bool:
    from matches.models import Match

    try:  # the tournaments app's own answer: None = not a tournament match
        from tournaments.queries import is_rated_match
    except ImportError:
        is_rated_match = None
    if is_rated_match is not None:
        rated = is_rated_match(match.pk)
        return True if rated is None else bool(rated)

    try:
        tournament_model = apps.get_model("tournaments", "Tournament")
    except LookupError:
        return True
    if not hasattr(tournament_model, "rated") and "rated" not in {f.name for f in tournament_model._meta.fields}:
        return True
    for model in apps.get_app_config("tournaments").get_models():
        to_match = [f for f in model._meta.fields if f.is_relation and f.related_model is Match]
        if not to_match:
            continue
        row = model.objects.filter(**{to_match[0].name: match}).first()
        if row is None:
            continue
        tournament = _tournament_of(row, tournament_model)
        if tournament is not None:
            return bool(getattr(tournament, "rated", True))
    return True


def _tournament_of(row, tournament_model, depth: int = 3):
    """Follows foreign keys (pairing → round → tournament) up to ``depth`` steps."""
    if isinstance(row, tournament_model):
        return row
    if depth == 0:
        return None
    for field in row._meta.fields:
        if field.is_relation and field.many_to_one and field.related_model is not None \
                and field.related_model._meta.app_label == "tournaments":
            found = _tournament_of(getattr(row, field.name), tournament_model, depth - 1)
            if found is not None:
                return found
    return None
