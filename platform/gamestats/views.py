from django.http import Http404
from django.shortcuts import render
from django.utils import translation

from games import registry

from . import figures


def _lang() -> str:
    return (translation.get_language() or "en")[:2]


def _names(lang: str) -> dict[str, str]:
    return {slug: (p.meta.name_de if lang == "de" else p.meta.name_en) for slug, p in registry.plugins().items()}


def stats_index(request):
    return render(request, "gamestats/index.html", {"games": figures.overview(_lang())})


def game_stats(request, game: str):
    lang = _lang()
    names = _names(lang)
    if game not in names:
        raise Http404("No such game")
    rows = figures.rows_of([game])[game]
    return render(request, "gamestats/game.html", {
        "game": game, "game_name": names[game], "count": len(rows), "figures": figures.headline(rows),
        "sections": figures.sections_of(registry.get(game), rows, lang), "games": list(names.items())})
