"""The games' rules pages: a summary per game and language in our own words, written from the
rule documents (templates under frontend/rules/<slug>.<lang>.html)."""
from __future__ import annotations

RULES = ("alchemist", "orden")


def rules_template(slug: str, lang: str) -> str:
    return f"frontend/rules/{slug}.{'de' if lang == 'de' else 'en'}.html"
