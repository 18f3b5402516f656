"""Statistics per game from the stored summaries: one query per page, then arithmetic.
Each game may add sections; every game gets the generic ones."""
from __future__ import annotations

import importlib
from collections import defaultdict

from django.utils.translation import gettext as _

from . import charts
from .models import GameSummary

SAMPLE = 5000  # the most recent finished matches a page looks at


def _pct(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 0.0


def _optional(module: str, name: str, default):
    """A game's presentation constant, if the game (still) has it."""
    try:
        return getattr(importlib.import_module(module), name, default)
    except Exception:
        return default


def sections(game: str, lang: str) -> tuple[int, list[dict]]:
    rows = list(GameSummary.objects.filter(game=game).order_by("-finished_at")
                .values_list("players", "data")[:SAMPLE])
    out = generic(rows)
    extra = {"alchemist": alchemist, "orden": orden}.get(game)
    if extra is not None:
        out = extra([d[game] for _, d in rows if isinstance(d.get(game), dict)], lang) + out
    return len(rows), out


def generic(rows: list[tuple[int, dict]]) -> list[dict]:
    by_players = defaultdict(list)
    for players, data in rows:
        by_players[players].append(data)
    if not rows:
        return []
    moves = [(_("%(n)d players") % {"n": n}, sum(d.get("moves", 0) for d in ds) / len(ds))
             for n, ds in sorted(by_players.items())]
    resigned = sum(1 for _, d in rows if d.get("by_resignation"))
    return [
        {"id": "moves", "title": _("Average moves per match"), "chart": charts.bar_chart(moves, title=_("Average moves per match"), chart_id="chart-moves"),
         "note": _("%(n)d finished matches, %(r)d of them ended by resignation.") % {"n": len(rows), "r": resigned}},
    ]


def alchemist(rows: list[dict], lang: str) -> list[dict]:
    hexes = _optional("games.alchemist.presentation", "HEX", {})
    words = _optional("games.alchemist.presentation", "COLOUR_WORD", {}).get(lang, {})
    points, totals, wins = defaultdict(list), defaultdict(list), defaultdict(int)
    with_schools = decided = 0
    for r in rows:
        if not r.get("schools"):
            continue
        with_schools += 1
        decided += bool(r.get("school_decided"))
        for seat in r.get("seats", []):
            school = seat.get("school")
            if school:
                points[school].append(seat.get("school_points") or 0)
                totals[school].append(seat.get("total") or 0)
                wins[school] += seat.get("place") == 1
    if not with_schools:
        return []
    order = sorted(points)
    label = [words.get(s, s) for s in order]
    colours = [hexes.get(s, "#7a3b12") for s in order]
    avg_points = [(lbl, sum(points[s]) / len(points[s])) for lbl, s in zip(label, order)]
    avg_totals = [(lbl, sum(totals[s]) / len(totals[s])) for lbl, s in zip(label, order)]
    win_rates = [(lbl, _pct(wins[s], len(points[s]))) for lbl, s in zip(label, order)]
    return [
        {"id": "school-points", "title": _("Average school points per school"),
         "chart": charts.bar_chart(avg_points, title=_("Average school points per school"), colours=colours,
                                   chart_id="chart-school-points")},
        {"id": "school-totals", "title": _("Average final points by school"),
         "chart": charts.bar_chart(avg_totals, title=_("Average final points by school"), colours=colours,
                                   chart_id="chart-school-totals")},
        {"id": "school-wins", "title": _("Win rate per school"),
         "chart": charts.bar_chart(win_rates, title=_("Win rate per school"), unit=" %", max_value=100,
                                   colours=colours, chart_id="chart-school-wins")},
        {"id": "school-decided", "title": _("How often the school decided the winner"),
         "chart": charts.bar_chart([(_("decided by the school"), _pct(decided, with_schools)),
                                    (_("decided without it"), _pct(with_schools - decided, with_schools))],
                                   title=_("How often the school decided the winner"), unit=" %", max_value=100,
                                   chart_id="chart-school-decided"),
         "note": _("%(d)d of %(n)d matches with schools: without the school points someone else would have won.")
         % {"d": decided, "n": with_schools}},
    ]


def orden(rows: list[dict], lang: str) -> list[dict]:
    if not rows:
        return []
    names = _optional("games.orden.decks", "STARTER_NAMES", {})
    path_games, path_wins, deck_games, deck_wins = defaultdict(int), defaultdict(int), defaultdict(int), defaultdict(int)
    rounds = []
    for r in rows:
        places = r.get("places") or []
        for seat, path in enumerate(r.get("paths") or []):
            won = seat < len(places) and places[seat] == 1
            path_games[path or "?"] += 1
            path_wins[path or "?"] += won
        for seat, deck in enumerate(r.get("decks") or []):
            won = seat < len(places) and places[seat] == 1
            deck_games[deck] += 1
            deck_wins[deck] += won
        if isinstance(r.get("rounds"), int):
            rounds.append(r["rounds"])

    def label(key: str) -> str:
        path = key.split(":", 1)[-1]
        pair = names.get(path)
        if pair:
            return pair[0] if lang == "de" else pair[1]
        return _("own deck") if key == "custom" else key

    path_rates = [(label(p), _pct(path_wins[p], n)) for p, n in sorted(path_games.items())]
    deck_rates = [(label(d), _pct(deck_wins[d], n)) for d, n in sorted(deck_games.items())]
    out = [
        {"id": "path-wins", "title": _("Win rate per path"),
         "chart": charts.bar_chart(path_rates, title=_("Win rate per path"), unit=" %", max_value=100,
                                   chart_id="chart-path-wins")},
        {"id": "deck-wins", "title": _("Win rate per starter deck"),
         "chart": charts.bar_chart(deck_rates, title=_("Win rate per starter deck"), unit=" %", max_value=100,
                                   chart_id="chart-deck-wins")},
    ]
    if rounds:
        hist = defaultdict(int)
        for n in rounds:
            hist[n] += 1
        out.append({"id": "rounds", "title": _("Rounds per match"),
                    "chart": charts.bar_chart([(str(k), v) for k, v in sorted(hist.items())],
                                              title=_("Rounds per match"), chart_id="chart-rounds"),
                    "note": _("Average: %(avg).1f rounds.") % {"avg": sum(rounds) / len(rounds)}})
    return out
