"""Statistics per game from the stored summaries: one query per page, then arithmetic.

Every game gets the generic figures (matches, length, the start player's share, wins by turn
order, win shares per group the game names with ``Plugin.stats_groups``); a game adds its own
sections with ``Plugin.stats_figures`` (data; drawn here as server-side SVG)."""
from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _

from games import registry

from . import charts
from .models import GameSummary

SAMPLE = 5000  # the most recent finished matches a page looks at


def _pct(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 0.0


def rows_of(games: list[str]) -> dict[str, list[tuple[int, dict]]]:
    """(players, data) of the newest summaries per game: one query."""
    out: dict[str, list] = {g: [] for g in games}
    for game, players, data in (GameSummary.objects.filter(game__in=games).order_by("-finished_at")
                                .values_list("game", "players", "data")[:SAMPLE * max(1, len(games))]):
        if len(out[game]) < SAMPLE and isinstance(data, dict):
            out[game].append((players, data))
    return out


def headline(rows: list[tuple[int, dict]]) -> dict:
    """The figures a player looks for first: how many, how long, does starting help."""
    days = [d["days"] for _, d in rows if isinstance(d.get("days"), (int, float))]
    started = [(players, d) for players, d in rows if isinstance(d.get("start"), int)]
    start_wins = sum(1 for _, d in started if _place(d, d["start"]) == 1)
    return {"count": len(rows), "resigned": sum(1 for _, d in rows if d.get("by_resignation")),
            "moves": sum(d.get("moves", 0) for _, d in rows) / len(rows) if rows else None,
            "days": sum(days) / len(days) if days else None,
            "start_share": _pct(start_wins, len(started)) if started else None,
            "fair_share": _pct(sum(1 / p for p, _ in started), len(started)) if started else None,
            "started": len(started)}


def _place(data: dict, seat: int):
    places = data.get("places") or []
    return places[seat] if 0 <= seat < len(places) else None


def turn_order(rows: list[tuple[int, dict]], *, chart_id: str = "chart-turn-order", compact: bool = False) -> dict | None:
    """Win rate by the seat's place in the turn order (1st to move, 2nd, ...)."""
    games, wins = defaultdict(int), defaultdict(int)
    fair = []
    for players, d in rows:
        start = d.get("start")
        if not isinstance(start, int) or not players:
            continue
        fair.append(100 / players)
        for seat in range(players):
            pos = (seat - start) % players
            games[pos] += 1
            wins[pos] += _place(d, seat) == 1
    if not games:
        return None
    title = _("Wins by turn order")
    bars = [(_("%(n)d. to move") % {"n": pos + 1}, _pct(wins[pos], n)) for pos, n in sorted(games.items())]
    return {"id": "turn-order", "title": title,
            "chart": charts.bar_chart(bars, title=title, unit=" %", max_value=100, chart_id=chart_id,
                                      compact=compact, marker=(_("an equal share"), sum(fair) / len(fair))),
            "note": _("The share of matches won from each place in the turn order; the dashed line is "
                      "an equal share.")}


def group_sections(plugin, rows: list[tuple[int, dict]], lang: str) -> list[dict]:
    """Win rate per label of each group the game names (a school, a path, a deck)."""
    words, colours = plugin.stats_labels(lang), plugin.stats_colours()
    games: dict[str, dict] = defaultdict(lambda: defaultdict(int))
    wins: dict[str, dict] = defaultdict(lambda: defaultdict(int))
    for _players, d in rows:
        own = d.get(plugin.meta.slug)
        if not isinstance(own, dict):
            continue
        for group, labels in (plugin.stats_groups(own) or {}).items():
            for seat, label in enumerate(labels):
                if label is None:
                    continue
                games[group][label] += 1
                wins[group][label] += _place(d, seat) == 1
    out = []
    for group in games:
        name = words.get(group, group)
        title = _("Win rate per %(group)s") % {"group": name}
        order = sorted(games[group].items(), key=lambda kv: str(kv[0]))
        bars = [(words.get(str(label), str(label)), _pct(wins[group][label], n)) for label, n in order]
        fills = [colours.get(str(label), "") for label, _n in order]
        out.append({"id": f"wins-{group}", "title": title,
                    "chart": charts.bar_chart(bars, title=title, unit=" %", max_value=100,
                                              colours=fills if any(fills) else None,
                                              chart_id=f"chart-wins-{group}"),
                    "note": _("The share of seats playing with it that won their match.")})
    return out


def game_sections(plugin, rows: list[tuple[int, dict]], lang: str) -> list[dict]:
    """The game's own figures (``Plugin.stats_figures``), drawn."""
    own = [d[plugin.meta.slug] for _, d in rows if isinstance(d.get(plugin.meta.slug), dict)]
    out = []
    for f in plugin.stats_figures(own, lang) if own else []:
        ident = str(f.get("id", len(out)))
        out.append({"id": ident, "title": f.get("title", ""), "note": f.get("note", ""),
                    "chart": charts.bar_chart(list(f.get("bars") or []), title=f.get("title", ""),
                                              unit=f.get("unit", ""), max_value=f.get("max"),
                                              colours=f.get("colours"), chart_id=f"chart-{ident}")})
    return out


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
        {"id": "moves", "title": _("Average moves per match"),
         "chart": charts.bar_chart(moves, title=_("Average moves per match"), chart_id="chart-moves"),
         "note": _("%(n)d finished matches, %(r)d of them ended by resignation.") % {"n": len(rows), "r": resigned}},
    ]


def sections(game: str, lang: str) -> tuple[int, list[dict]]:
    rows = rows_of([game])[game]
    return len(rows), sections_of(registry.get(game), rows, lang)


def sections_of(plugin, rows: list[tuple[int, dict]], lang: str) -> list[dict]:
    if not rows:
        return []
    order = turn_order(rows)
    return ([order] if order else []) + group_sections(plugin, rows, lang) + game_sections(plugin, rows, lang) \
        + generic(rows)


def overview(lang: str) -> list[dict]:
    """Per game: its name, the headline figures and the turn-order chart (one query)."""
    plugins = registry.plugins()
    rows = rows_of(list(plugins))
    out = []
    for slug, plugin in plugins.items():
        order = turn_order(rows[slug], chart_id=f"chart-turn-order-{slug}", compact=True)
        out.append({"slug": slug, "name": plugin.meta.name_de if lang == "de" else plugin.meta.name_en,
                    "figures": headline(rows[slug]), "chart": order["chart"] if order else ""})
    return out
