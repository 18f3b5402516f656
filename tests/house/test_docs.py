"""The docs are reference, not a journal: no page carries an internal step label ("stop 12",
"issue 27"), and the two pages that had grown into lab notebooks stay within their size. History
belongs in CHANGELOG.md and git."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LABEL = re.compile(r"\b(?:stops?|issues?)\s+#?\d+", re.IGNORECASE)
LIMITS = {"docs/performance.md": 400, "docs/games/orden.md": 600}

pytestmark = pytest.mark.pure


def pages() -> list[Path]:
    """Every page under docs/ and the root's own pages, the changelog excepted (it is the history)."""
    return sorted([*(ROOT / "docs").rglob("*.md"), *(p for p in ROOT.glob("*.md") if p.name != "CHANGELOG.md")])


def labels(text: str) -> list[str]:
    return [m.group(0) for m in LABEL.finditer(text)]


def test_the_label_pattern_finds_what_it_must_and_nothing_else():
    found = labels("Balance measured again (stop 56); issue 23's drills; Issues #7 and 8; stops 3")
    assert found == ["stop 56", "issue 23", "Issues #7", "stops 3"]
    assert labels("the bus stops at 5; a stop. 12 issues were closed; no issue here") == []


def test_no_page_carries_a_step_label():
    assert pages() and ROOT / "docs" / "performance.md" in pages()
    found = {str(p.relative_to(ROOT)): labels(p.read_text()) for p in pages()}
    assert {page: hits for page, hits in found.items() if hits} == {}


@pytest.mark.parametrize("page, limit", sorted(LIMITS.items()))
def test_the_reference_pages_stay_short(page, limit):
    lines = len((ROOT / page).read_text().splitlines())
    assert lines <= limit, f"{page}: {lines} lines (at most {limit}); history goes to CHANGELOG.md"
