"""The guided match's suggested move: what the game's strongest bot would play for the learner's
seat, named with a short reason in the learner's language.

Game-generic: the bot is the plugin's ``hint_bot`` (default: the last of ``bots()``), the words
its ``suggestion_text`` (default: ``action_text`` and a generic reason). The bot sees the state
with everything the seat cannot see redrawn (``resample_hidden`` for every other seat and for
nobody's secrets), so a suggestion never depends on hidden information, even with a bot that
would read the whole state. Worked out once per match version and seat (cached)."""
from __future__ import annotations

import json
import logging

from django.core.cache import cache

from games.base import Plugin
from games.rng import Rng

logger = logging.getLogger(__name__)
CACHE_SECONDS = 3600
GENERIC_WHY = ("The strongest bot of this game would choose this move now.",
               "Der stärkste Bot dieses Spiels würde jetzt diesen Zug wählen.")


def hint_bot(plugin: Plugin) -> str | None:
    bots = plugin.bots()
    if plugin.hint_bot in bots:
        return plugin.hint_bot
    return next(reversed(bots), None) if bots else None


def _blind_state(plugin: Plugin, state: dict, seat: int, players: int, rng: Rng) -> dict:
    for other in range(players):
        if other != seat:
            state = plugin.resample_hidden(state, other, rng)
    return plugin.resample_hidden(state, None, rng)


def suggested_action(plugin: Plugin, state: dict, seat: int, legal: list, players: int, seed: int) -> dict | None:
    """The hint bot's move for ``seat`` (one of ``legal``), or None (no bot, or it failed)."""
    name = hint_bot(plugin)
    if name is None or not legal:
        return None
    rng = Rng(seed)
    try:
        blind = _blind_state(plugin, state, seat, players, rng)
    except NotImplementedError:  # a game without the hook: no suggestion rather than a peek
        return None
    try:
        action = plugin.bots()[name](blind, seat, rng)
    except Exception:  # a hint must never break the table
        logger.exception("hint bot %s failed", name)
        return None
    return action if action in legal else None


def suggestion(match, seat: int, legal: list, lang: str) -> dict | None:
    """``{"action", "action_json", "text", "why"}`` for the seat's table, or None."""
    from games import registry

    plugin = registry.get(match.game)
    # The seed is in the key: a match id can come again (SQLite reuses the highest id after a
    # deletion, e.g. of a guest's match), the seed of another match hardly.
    key = f"guide-suggest:{match.pk}:{match.seed}:{match.version}:{seat}"
    cached = cache.get(key)
    if cached is not None and (cached["action"] is None or cached["action"] in legal):
        action = cached["action"]
    else:
        action = suggested_action(plugin, match.state, seat, legal, match.players, match.seed ^ match.version)
        cache.set(key, {"action": action}, CACHE_SECONDS)
    if action is None:
        return None
    words = None
    try:
        words = plugin.suggestion_text(plugin.engine.view(match.state, seat), seat, action, lang)
    except Exception:
        logger.exception("suggestion_text failed")
    if words is None:
        text = plugin.action_text(action, lang) or _label(action)
        words = (text, GENERIC_WHY[1 if lang == "de" else 0])
    return {"action": action, "action_json": json.dumps(action, separators=(",", ":")),
            "text": words[0], "why": words[1]}


def _label(action: dict) -> str:
    """A game without words of its own: the move's type and fields ("play · card 3")."""
    parts = [str(action.get("type", "?")).replace("_", " ")]
    return " · ".join(parts + [f"{k.replace('_', ' ')} {v}" for k, v in action.items() if k != "type"])
