"""The guided match's hints: the game's intro and a short text for each kind of move the learner
may make now (the plugin's ``guide()``: games/base.py), in German or English. Pure: from the
legal actions."""
from __future__ import annotations

from games import registry

WAITING = ("The bot is thinking; its move appears here by itself.",
           "Der Bot ist am Zug; sein Zug erscheint hier von selbst.")
FINISHED = ("The match is over. Play another guided match, or invite people from the lobby.",
            "Die Partie ist vorbei. Spiele noch eine geführte Partie oder lade Mitspieler in der Lobby ein.")


def pick(pair, lang: str) -> str:
    return (pair[1] if lang == "de" else pair[0]) if pair else ""


def texts(game: str) -> dict:
    """``{"intro": (en, de), "hints": {action type: (en, de)}}`` of ``game``; empty if unknown."""
    plugin = registry.plugins().get(game)
    guide = plugin.guide() if plugin is not None else {}
    return {"intro": tuple(guide.get("intro") or ("", "")), "hints": dict(guide.get("hints") or {})}


def hints(game: str, legal: list[dict], lang: str, *, finished: bool = False) -> dict:
    """``{"intro", "steps": [text per kind of legal move, in the order they first occur], "waiting"}``."""
    guide = texts(game)
    table = guide["hints"]
    kinds: list[str] = []
    for action in legal:
        kind = action.get("type") if isinstance(action, dict) else None
        if kind and kind not in kinds:
            kinds.append(kind)
    steps = [pick(table[k], lang) for k in kinds if k in table]
    intro = pick(guide["intro"], lang)
    if finished:
        return {"intro": intro, "steps": [], "waiting": pick(FINISHED, lang)}
    return {"intro": intro, "steps": steps, "waiting": "" if legal else pick(WAITING, lang)}


def games() -> list[str]:
    """Every game offers a guided match (the plugin's default bot plays the other seat)."""
    return list(registry.plugins())
