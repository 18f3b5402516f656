"""Der Orden's table with 6 players (the most the site seats) at a phone (390x844) and a desktop
(1280x800): no sideways scrolling, every seat on the board, the main moves within the first screen
(desktop) or the first one and a half (phone). Screenshots go to $ORDEN_SHOTS when it is set."""
from __future__ import annotations

import os

import pytest

from tests.browser.test_table_layout import DESKTOP, PHONE, _match, _open, _orden_turn_start, _top

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390x844", "1280x800"])
def test_six_seats_fit_the_table(live_site, browser, size):
    match_id, sessions, mover = _match("orden", 6, 30, f"six{size[0]}", until=_orden_turn_start)
    page = _open(browser, live_site, match_id, sessions[mover], size)
    assert page.locator("section.ord-seat[data-rank]").count() == 6
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    limit = size[1] if size == DESKTOP else 1.5 * size[1]
    tops = {"end turn": _top(page, "#ord-move button.ord-end"),
            "first hand move": _top(page, ".ord-hand .ord-actions button"),
            "undo": _top(page, "#undo, #undo-off"), "resign": _top(page, ".resign-box summary")}
    late = {k: v if v is None else round(v) for k, v in tops.items() if v is None or v > limit}
    assert not late, f"below {limit:.0f} px at {size}: {late}"
    # no seat box wider than the screen, none cut off at the right
    rights = page.locator("section.ord-seat[data-rank]").evaluate_all("els => els.map(e => e.getBoundingClientRect().right)")
    assert max(rights) <= size[0] + 0.5, rights
    shots = os.environ.get("ORDEN_SHOTS")
    if shots:
        page.screenshot(path=f"{shots}/orden-6-{size[0]}.png", full_page=True)
    page.context.close()
