"""The table's hook (frontend/table_extras.py): on a guided match the learner's table shows the
hints for the moves they may make now and the move the game's strongest bot suggests (guide/suggest.py).
One primary-key lookup, only for a seated person in a private match."""
from __future__ import annotations

from .hints import hints
from .models import GuidedMatch
from .suggest import suggestion


def context(match, seat, legal: list, lang: str) -> dict:
    if seat is None or seat.user_id is None or match.public:
        return {}  # a guided match is private (views.py starts it so): a public one needs no read
    if not GuidedMatch.objects.filter(match_id=match.pk, learner_id=seat.user_id).exists():
        return {}
    finished = match.status != "active"
    guide = hints(match.game, legal, lang, finished=finished)
    if legal and not finished:
        guide["suggestion"] = suggestion(match, seat.seat, legal, lang)
    return {"guide": guide, "table_templates": ["guide/hint.html"]}
