"""Alchemist's statistics (Plugin.stats_*): what a finished match keeps (schools, school points,
totals) and the school figures of its statistics page. Pure: read from the final public view,
defensively (a stored summary of an older view shape stays readable)."""
from __future__ import annotations

from collections import defaultdict

from .presentation import COLOUR_WORD, HEX


def summary(view: dict, choices: list[dict]) -> dict:
    final = view.get("final") or {}
    schools = {s["seat"]: s.get("school") for s in view.get("seats", [])}
    rows = [{"school": schools.get(r["seat"]), "school_points": r.get("school_points") or 0,
             "school_rank": r.get("school_rank"), "total": r.get("total") or 0, "place": r.get("place")}
            for r in sorted(final.get("seats", []), key=lambda r: r["seat"])]
    winners = {i for i, r in enumerate(rows) if r["place"] == 1}
    without = [r["total"] - r["school_points"] for r in rows]
    best_without = {i for i, v in enumerate(without) if without and v == max(without)}
    # The school decided the winner if, without school points, someone else would lead.
    decided = bool(view.get("schools")) and bool(rows) and winners != best_without
    return {"seats": rows, "schools": bool(view.get("schools")), "school_decided": decided,
            "rounds": view.get("round")}


def groups(data: dict) -> dict[str, list]:
    if not data.get("schools"):
        return {}
    return {"school": [seat.get("school") for seat in data.get("seats", [])]}


LABELS = {
    "en": {"school": "school", "school_points": "Average school points per school",
           "school_totals": "Average final points by school", "school_decided": "How often the school decided the winner",
           "decided": "by the school", "not_decided": "without it",
           "decided_note": "{d} of {n} matches with schools: without the school points someone else would have won."},
    "de": {"school": "Schule", "school_points": "Durchschnittliche Schulpunkte je Schule",
           "school_totals": "Durchschnittliche Endpunkte je Schule",
           "school_decided": "Wie oft die Schule den Sieg entschied",
           "decided": "durch die Schule", "not_decided": "ohne sie",
           "decided_note": "{d} von {n} Partien mit Schulen: Ohne die Schulpunkte hätte jemand anderes gewonnen."},
}


def labels(lang: str) -> dict[str, str]:
    lang = "de" if lang == "de" else "en"
    return {**COLOUR_WORD.get(lang, {}), **LABELS[lang]}


def figures(summaries: list[dict], lang: str) -> list[dict]:
    words = labels(lang)
    points, totals = defaultdict(list), defaultdict(list)
    with_schools = decided = 0
    for r in summaries:
        if not r.get("schools"):
            continue
        with_schools += 1
        decided += bool(r.get("school_decided"))
        for seat in r.get("seats", []):
            if seat.get("school"):
                points[seat["school"]].append(seat.get("school_points") or 0)
                totals[seat["school"]].append(seat.get("total") or 0)
    if not with_schools:
        return []
    order = sorted(points)
    colours = [HEX.get(s, "#7a3b12") for s in order]

    def avg(table):
        return [(words.get(s, s), sum(table[s]) / len(table[s])) for s in order]

    return [
        {"id": "school-points", "title": words["school_points"], "bars": avg(points), "colours": colours},
        {"id": "school-totals", "title": words["school_totals"], "bars": avg(totals), "colours": colours},
        {"id": "school-decided", "title": words["school_decided"], "unit": " %", "max": 100,
         "bars": [(words["decided"], 100 * decided / with_schools),
                  (words["not_decided"], 100 * (with_schools - decided) / with_schools)],
         "note": words["decided_note"].format(d=decided, n=with_schools)},
    ]
