"""Run the conformance suite's pure checks on one plugin that is not (yet) registered: a package
that ``manage.py startgame`` just wrote, or a game's own tests. Every ``test_*`` function of
``test_conformance`` and ``test_proofs`` that takes ``slug``, ``plugin, players, seed``,
``plugin, players`` or ``plugin, options`` is called with it (the checks through Django,
``test_platform_channels``, run by pytest over the registered games)."""
from __future__ import annotations

import inspect

from games.base import Plugin

from . import proofs, test_conformance, test_proofs

SUITES = (test_conformance, test_proofs)


def check_plugin(plugin: Plugin, seeds=(1, 2), players=None) -> list[str]:
    """Runs every check on ``plugin`` (each player count, or ``players``; ``seeds``) and returns
    the names of the checks run; a failing check raises its AssertionError (or ``proofs.Breach``)."""
    slug = plugin.meta.slug
    counts = list(players or range(plugin.meta.min_players, plugin.meta.max_players + 1))
    ran = []
    for suite in SUITES:
        registry_of_suite = getattr(suite, "PLUGINS", {})
        added = slug not in registry_of_suite
        registry_of_suite.setdefault(slug, plugin)
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
                elif params == ["plugin", "players"]:
                    for n in counts:
                        fn(plugin, n)
                elif params == ["plugin", "options"]:
                    for options in proofs.option_combinations(plugin.meta):
                        fn(plugin, options)
                else:
                    continue  # a check of another shape (fixtures): run by pytest over registered games
                ran.append(name)
        finally:
            if added:
                registry_of_suite.pop(slug, None)
    return ran
