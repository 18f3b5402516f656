"""What feature apps add to the game table: an app's ``table_context`` (dotted path to
``f(match, seat, legal, lang) -> dict``) may return context and ``table_templates``, included
in the live part above the board (the guide's hints, platform/guide/table.py)."""
from __future__ import annotations

from django.apps import apps
from django.utils.module_loading import import_string


def _hooks():
    return [import_string(c.table_context) for c in apps.get_app_configs() if getattr(c, "table_context", None)]


def table_extras(match, seat, legal: list, lang: str) -> dict:
    out: dict = {"table_templates": []}
    for hook in _hooks():
        extra = hook(match, seat, legal, lang) or {}
        out["table_templates"] += extra.pop("table_templates", [])
        out.update(extra)
    return out
