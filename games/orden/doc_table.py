"""Writes the table of all current Der Orden cards into docs/games/orden.md (the rows come from
``games.orden.text.card_table``; tests/games/orden/test_orden_card_lint.py fails while the page
differs). Run after a card change: ``.venv/bin/python -m games.orden.doc_table``."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "games" / "orden.md"


def current_table() -> list[str]:
    from games.orden.catalog import cardset
    from games.orden.decks import CURRENT
    from games.orden.text import card_table

    return card_table(c for c in cardset().cards.values() if c.in_version(CURRENT))


def table_span(lines: list[str], header: str) -> tuple[int, int]:
    """Where the page's card table lies: from its header row to the first line that is no row."""
    start = lines.index(header)
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return start, end


def main() -> int:
    lines, table = DOC.read_text().split("\n"), current_table()
    start, end = table_span(lines, table[0])
    lines[start:end] = table
    DOC.write_text("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
