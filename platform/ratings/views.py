"""Ranking pages: thin, one query per table."""
from django.http import Http404
from django.shortcuts import render
from django.utils import translation

from games import registry

from . import conf, queries


def _lang() -> str:
    return (translation.get_language() or "en")[:2]


def game_names(lang: str) -> list[tuple[str, str]]:
    return [(slug, p.meta.name_de if lang == "de" else p.meta.name_en) for slug, p in registry.plugins().items()]


def rankings(request):
    return render(request, "ratings/rankings.html", {
        "rows": queries.overall(), "games": game_names(_lang()), "game": None,
        "provisional_games": conf.provisional_games()})


def game_ranking(request, game: str):
    names = dict(game_names(_lang()))
    if game not in names:
        raise Http404("No such game")
    rows = [{**r, "username": r["user"].username} for r in queries.ranking(game)]
    return render(request, "ratings/rankings.html", {
        "rows": rows, "games": list(names.items()), "game": game, "game_name": names[game],
        "provisional_games": conf.provisional_games()})
