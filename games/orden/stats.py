"""Der Orden's statistics (Plugin.stats_*): each seat's path and deck, the rounds played; the
win shares by path and by starter deck are the platform's (stats_groups). Pure."""
from __future__ import annotations

from collections import Counter

from .decks import STARTER_NAMES


def summary(view: dict, choices: list[dict]) -> dict:
    seats = sorted(view.get("seats", []), key=lambda s: s["seat"])
    decks = [(c or {}).get("deck_id", "custom") for c in (choices or [])]
    return {"paths": [s.get("path") for s in seats], "decks": decks, "rounds": view.get("round")}


def groups(data: dict) -> dict[str, list]:
    return {"path": [p or "?" for p in data.get("paths") or []], "deck": list(data.get("decks") or [])}


WORDS = {"en": {"path": "path", "deck": "starter deck", "custom": "own deck", "rounds": "Rounds per match",
                "rounds_note": "Average: {avg:.1f} rounds."},
         "de": {"path": "Pfad", "deck": "Startdeck", "custom": "eigenes Deck", "rounds": "Runden pro Partie",
                "rounds_note": "Durchschnitt: {avg:.1f} Runden."}}


def labels(lang: str) -> dict[str, str]:
    lang = "de" if lang == "de" else "en"
    out = dict(WORDS[lang])
    for path, (de, en) in STARTER_NAMES.items():
        out[path] = de if lang == "de" else en
        out[f"starter:{path}"] = out[path]
    return out


def figures(summaries: list[dict], lang: str) -> list[dict]:
    rounds = [r["rounds"] for r in summaries if isinstance(r.get("rounds"), int)]
    if not rounds:
        return []
    words = labels(lang)
    hist = Counter(rounds)
    return [{"id": "rounds", "title": words["rounds"], "bars": [(str(k), v) for k, v in sorted(hist.items())],
             "note": words["rounds_note"].format(avg=sum(rounds) / len(rounds))}]
