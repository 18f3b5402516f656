"""A first visit: the landing page an anonymous visitor sees at ``/`` (what the site
is, its games, sign up or watch) and the help page ``/help/``. Signed-in players go on to My games."""
from __future__ import annotations

from django.apps import apps
from django.shortcuts import redirect, render
from django.utils import translation

from accounts.guests import is_guest
from games import registry


def _guided() -> set[str]:
    """The games with a guided match (platform/guide), if that app is installed."""
    if not apps.is_installed("guide"):
        return set()
    from guide.hints import games

    return set(games())


def _games(lang: str) -> list[dict]:
    out, guided = [], _guided()
    for slug, plugin in registry.plugins().items():  # every registered game
        meta = plugin.meta
        out.append({"slug": slug, "name": meta.name_de if lang == "de" else meta.name_en,
                    "summary": meta.summary_de if lang == "de" else meta.summary_en,
                    "players": f"{meta.min_players}–{meta.max_players}", "guided": slug in guided})
    return out


def home(request):
    if request.user.is_authenticated and not is_guest(request.user):  # a guest sees the landing page
        return redirect("my-games")
    lang = (translation.get_language() or "en")[:2]
    games = _games(lang)
    try_game = next((g for g in games if g["guided"]), None)  # "Try it now": the first guided game
    return render(request, "frontend/landing.html", {"games": games, "try_game": try_game})


def help_page(request):
    lang = (translation.get_language() or "en")[:2]
    return render(request, "frontend/help.html", {"games": _games(lang)})
