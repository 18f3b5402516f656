"""Finds the game plugins: every sub-package of ``games`` that exposes ``PLUGIN``.

Adding a game means adding one package under games/; nothing else is edited.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import warnings
from functools import lru_cache
from pathlib import Path

from games.base import Plugin

GAMES_DIR = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def plugins() -> dict[str, Plugin]:
    found: dict[str, Plugin] = {}
    for info in sorted(pkgutil.iter_modules([str(GAMES_DIR)]), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"games.{info.name}")
        plugin = getattr(module, "PLUGIN", None)
        if isinstance(plugin, Plugin):
            if plugin.meta.slug in found:
                raise RuntimeError(f"Two games use the slug {plugin.meta.slug!r}")
            if plugin.package_dir is None:
                plugin.package_dir = GAMES_DIR / info.name
            _warn_deprecated(plugin)
            found[plugin.meta.slug] = plugin
    # Extra plugin modules by dotted path (the platform's own test game, in test processes
    # such as a Celery worker started by the test suite).
    for path in filter(None, os.environ.get("SPIELTISCH_EXTRA_GAMES", "").split(",")):
        module = importlib.import_module(path.strip())
        plugin = module.PLUGIN
        if plugin.package_dir is None:
            plugin.package_dir = Path(module.__file__).resolve().parent
        _warn_deprecated(plugin)
        found.setdefault(plugin.meta.slug, plugin)
    return found


def _warn_deprecated(plugin: Plugin) -> None:
    """Hooks that still run but are on their way out (docs/writing-a-game.md, "Compatibility")."""
    if plugin.board_styles:
        warnings.warn(f"{plugin.meta.slug}: Plugin.board_styles is deprecated; declare the board's "
                      "static files with stylesheets()/scripts() (or keep them in static/<slug>/)",
                      DeprecationWarning, stacklevel=2)


def get(slug: str) -> Plugin:
    """The plugin for ``slug``; KeyError if there is none."""
    return plugins()[slug]


def template_dirs() -> list[str]:
    """Each game's ``templates/`` folder, for Django's template loader."""
    return [str(p) for p in sorted(GAMES_DIR.glob("*/templates")) if p.is_dir()]


def display_name(slug: str, lang: str | None) -> str:
    """The game's name for people in ``lang`` ("de…" German, else English); the slug itself
    for a game that is not installed (old records). Pages, mails and the API's ``game_name``."""
    plugin = plugins().get(slug)
    if plugin is None:
        return slug
    return plugin.meta.name_de if (lang or "").startswith("de") else plugin.meta.name_en
