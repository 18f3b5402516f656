"""Every bot of Der Orden by name: the plugin's ``bots()`` and the bench tools read this list."""
from __future__ import annotations

from games.orden.bots import heuristic_bot, random_bot
from games.orden.lookahead import lookahead_bot

BOTS = {"random": random_bot, "heuristic": heuristic_bot, "lookahead": lookahead_bot}
