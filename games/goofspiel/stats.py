"""Goofspiel's statistics (Plugin.stats_*): what a finished match keeps (the rounds' prizes and
bids, the tie rule) and its figures: how often a round ends tied, and the bid that won each
prize value on average. Pure; read defensively from the final public view."""
from __future__ import annotations

from collections import defaultdict


def summary(view: dict) -> dict:
    rounds = [{"pot": list(h.get("pot") or []), "bids": list(h.get("bids") or []), "winner": h.get("winner")}
              for h in view.get("history") or []]
    return {"ties": view.get("ties"), "size": view.get("size"), "rounds": rounds}


LABELS = {
    "en": {"tied": "Rounds ending in a tie", "tied_note": "{n} matches; tie rule: {rule}",
           "discard": "prize discarded", "carry": "prize carried over",
           "winning_bid": "Average winning bid per prize value", "prize": "prize {v}"},
    "de": {"tied": "Runden mit Gleichstand", "tied_note": "{n} Partien; Gleichstand-Regel: {rule}",
           "discard": "Preis abgelegt", "carry": "Preis geht weiter",
           "winning_bid": "Durchschnittliches Siegergebot je Preiswert", "prize": "Preis {v}"},
}


def labels(lang: str) -> dict[str, str]:
    return LABELS["de" if lang == "de" else "en"]


def figures(summaries: list[dict], lang: str) -> list[dict]:
    words = labels(lang)
    tied, total, matches = defaultdict(int), defaultdict(int), defaultdict(int)
    wins = defaultdict(list)
    for s in summaries:
        rule = s.get("ties") if s.get("ties") in ("discard", "carry") else "discard"
        matches[rule] += 1
        for r in s.get("rounds") or []:
            total[rule] += 1
            if r.get("winner") is None:
                tied[rule] += 1
            elif len(r.get("pot") or []) == 1 and r["winner"] < len(r.get("bids") or []):
                wins[r["pot"][0]].append(r["bids"][r["winner"]])
    out = []
    if total:
        out.append({"id": "tied", "title": words["tied"], "unit": " %", "max": 100, "colours": None,
                    "bars": [(words[rule], round(100 * tied[rule] / total[rule], 1)) for rule in ("discard", "carry")
                             if total[rule]],
                    "note": "; ".join(words["tied_note"].format(n=matches[r], rule=words[r]) for r in matches)})
    if wins:
        out.append({"id": "winning-bid", "title": words["winning_bid"], "unit": "", "max": None, "colours": None,
                    "bars": [(words["prize"].format(v=v), round(sum(b) / len(b), 1)) for v, b in sorted(wins.items())],
                    "note": ""})
    return out
