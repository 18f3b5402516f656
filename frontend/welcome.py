"""A first visit (issue 25): the landing page an anonymous visitor sees at ``/`` (what the site
is, its games, sign up or watch) and the help page ``/help/``. Signed-in players go on to My games."""
from __future__ import annotations

from django.shortcuts import redirect, render
from django.utils import translation

from games import registry


def _games(lang: str) -> list[dict]:
    out = []
    for slug, plugin in registry.plugins().items():  # every registered game
        meta = plugin.meta
        out.append({"slug": slug, "name": meta.name_de if lang == "de" else meta.name_en,
                    "summary": meta.summary_de if lang == "de" else meta.summary_en,
                    "players": f"{meta.min_players}–{meta.max_players}"})
    return out


def home(request):
    if request.user.is_authenticated:
        return redirect("my-games")
    lang = (translation.get_language() or "en")[:2]
    return render(request, "frontend/landing.html", {"games": _games(lang)})


def help_page(request):
    lang = (translation.get_language() or "en")[:2]
    return render(request, "frontend/help.html", {"games": _games(lang)})
