"""What the platform puts around a game's board: its static files (linked in <head>: the CSP
allows no inline style or script) and the merge of the plugin's ``board_context`` into the
page's context, where the platform's own keys win (docs/writing-a-game.md, "The board's
context")."""
from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


def board_assets(plugin) -> dict:
    """``board_css``/``board_js``: static paths for the page's <head>; ``board_styles`` is the
    deprecated template hook, still included; ``board_styles_in_head`` tells a board template
    that its files are linked already (replays, the game page)."""
    return {"board_css": list(plugin.stylesheets()), "board_js": list(plugin.scripts()),
            "board_styles": plugin.board_styles, "board_styles_in_head": True}


def board_context(plugin, context: dict, view: dict, seat, legal: list, lang: str, *, hl=None) -> dict:
    """The plugin's ``board_context`` without the keys ``context`` (the platform's) holds."""
    extra = (plugin.board_context(view, seat, legal, lang, hl=hl) if hl is not None
             else plugin.board_context(view, seat, legal, lang)) or {}
    clash = sorted(k for k in extra if k in context)
    if clash:
        logger.warning("%s: board_context may not set the platform's keys %s; dropped",
                       plugin.meta.slug, ", ".join(clash))
    return {k: v for k, v in extra.items() if k not in context}
