"""The guided first match: ``/learn/`` lists the games, ``POST /learn/<game>/`` starts a private
match of the signed-in player against the game's bot and opens its table, where the hints
show (guide/table.py)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import translation
from django.views.decorators.http import require_POST

from games import registry
from matches import services as match_services

from .hints import pick, games, texts
from .models import GuidedMatch

def _bot(plugin) -> str:
    return plugin.default_bot_name()


def learn(request):
    lang = (translation.get_language() or "en")[:2]
    rows = []
    for slug in games():
        try:
            meta = registry.get(slug).meta
        except KeyError:
            continue
        rows.append({"slug": slug, "name": meta.name_de if lang == "de" else meta.name_en,
                     "intro": pick(texts(slug)["intro"], lang)})
    return render(request, "guide/learn.html", {"rows": rows})


@login_required
@require_POST
def start(request, game: str):
    if game not in games():
        raise Http404("No guided match for this game")
    try:
        plugin = registry.get(game)
    except KeyError:
        raise Http404("No such game") from None
    # One guided match per game at a time: a second click continues it (and nobody fills the
    # database with bot matches by clicking).
    running = (GuidedMatch.objects.filter(learner=request.user, match__game=game, match__status="active")
               .values_list("match_id", flat=True).first())
    if running:
        return redirect("match", running)
    with transaction.atomic():
        match = match_services.start_match(
            game=game, entrants=[{"user": request.user, "bot": "", "choices": {}},
                                 {"user": None, "bot": _bot(plugin), "choices": {}}],
            options={}, move_days=14, public=False)
        GuidedMatch.objects.create(match=match, learner=request.user)
    return redirect("match", match.pk)
