"""Finds the feature apps beyond the core, so that a new platform app (platform/<name>/ with
an apps.py) or a game's Django part (games/<slug>/web/ with an apps.py) is installed and routed
without editing settings or URLs: adding a game stays "add one package under games/".

Routing convention: an app's ``urls.py`` is mounted at ``/``, its ``api_urls.py`` at ``/api/``.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE_APPS = ["accounts", "matches", "lobby", "api", "frontend"]


def feature_apps() -> list[str]:
    found = [p.parent.name for p in sorted((ROOT / "platform").glob("*/apps.py"))
             if p.parent.name not in CORE_APPS and p.parent.name != "config"]
    found += [f"games.{p.parent.parent.name}.web" for p in sorted((ROOT / "games").glob("*/web/apps.py"))]
    return found


def module_exists(dotted: str) -> bool:
    path = ROOT / "platform" / Path(*dotted.split("."))
    alt = ROOT / Path(*dotted.split("."))
    return any(p.with_suffix(".py").exists() for p in (path, alt))
