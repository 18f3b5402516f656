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
from matches.models import NotifyLevel, Seat

from .hints import INTRO, games
from .models import GuidedMatch

BOT_PREFERENCE = ("heuristic", "random")


def _bot(plugin) -> str:
    bots = plugin.bots()
    return next((b for b in BOT_PREFERENCE if b in bots), next(iter(bots)))


def learn(request):
    lang = (translation.get_language() or "en")[:2]
    rows = []
    for slug in games():
        try:
            meta = registry.get(slug).meta
        except KeyError:
            continue
        rows.append({"slug": slug, "name": meta.name_de if lang == "de" else meta.name_en,
                     "intro": INTRO[slug][1 if lang == "de" else 0]})
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
        # The guided match never mails or pushes (nor fills the bell): the learner sits at the
        # table, and a first visit must not end in an inbox of "your turn" mails. Set before the
        # commit, so that the start's follow-up already finds it.
        Seat.objects.filter(match=match, user=request.user).update(notify_level=NotifyLevel.NONE)
    return redirect("match", match.pk)
