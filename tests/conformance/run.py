"""Run the conformance suite's checks on one plugin that is not (yet) registered: a package that
``manage.py startgame`` just wrote, or a game's own tests. Every ``test_*`` function of
``test_conformance`` that takes ``slug`` or ``plugin, players, seed`` is called with it."""
from __future__ import annotations

import inspect

from games.base import Plugin

from . import test_conformance as suite


def check_plugin(plugin: Plugin, seeds=(1, 2), players=None) -> list[str]:
    """Runs every check on ``plugin`` (each player count, or ``players``; ``seeds``) and returns
    the names of the checks run; an AssertionError or pytest failure propagates as is."""
    slug = plugin.meta.slug
    counts = players or range(plugin.meta.min_players, plugin.meta.max_players + 1)
    ran = []
    added = slug not in suite.PLUGINS
    suite.PLUGINS.setdefault(slug, plugin)
    try:
        for name, fn in sorted(vars(suite).items()):
            if not name.startswith("test_") or not callable(fn):
                continue
            params = list(inspect.signature(fn).parameters)
            if params == ["slug"]:
                fn(slug)
            elif params == ["plugin", "players", "seed"]:
                for n in counts:
                    for seed in seeds:
                        fn(plugin, n, seed)
            else:
                continue  # a check of another shape (fixtures): run by pytest over registered games
            ran.append(name)
    finally:
        if added:
            suite.PLUGINS.pop(slug, None)
    return ran
