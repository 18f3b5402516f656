"""A game plugin written against the interface as it stood before the kit's hooks (no
``default_bot``, ``rules_template``, ``stylesheets``, ``guide``, ``stats_*``): only the old hooks,
``board_styles`` among them (deprecated, still run). tests/platform/test_game_kit.py plays it
on the site. Engine: the test game's rules under another slug."""
from __future__ import annotations

from dataclasses import replace

from games.base import Plugin
from tests.support import minigame

META = replace(minigame.META, slug="altspiel", name_en="Old game", name_de="Altes Spiel",
               summary_en="A game of the old interface.", summary_de="Ein Spiel der alten Schnittstelle.")


class Engine(minigame.Engine):
    meta = META


def _first(state, seat, rng):
    return Engine().legal_actions(state, seat)[0]


class OldPlugin(Plugin):
    board_template = "oldstyle/board.html"
    board_styles = "oldstyle/styles.html"

    def describe(self, event, names, lang):
        return minigame.PLUGIN.describe(event, names, lang)

    def board_context(self, view, seat, legal, lang):
        # "version" is the platform's: a board may not overwrite it (the key is dropped)
        return {"old_hand": view.get("hand") or [], "version": -1}

    def resample_hidden(self, state, seat, rng):
        return minigame.PLUGIN.resample_hidden(state, seat, rng)

    def bots(self):
        # "heuristic": the name the platform preferred before ``default_bot`` existed
        return {"heuristic": _first, "random": _first}


PLUGIN = OldPlugin(Engine())
