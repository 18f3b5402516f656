"""The deck builder's sticky bar (name, card count, Save) stays small on a phone: it once held the
deck rules too and covered about 40 % of a 390 px screen while the player scrolled through the cards."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.pages import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("FIT_SHOTS")  # a folder: also save the screenshots there


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_the_sticky_bar_leaves_the_cards_in_view(live_site, browser, size):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    sign_up(page, live_site, "W" * 40)
    page.goto(f"{live_site}/orden/decks/new/")
    page.fill("#id_name", "D" * 60)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/deck-builder-{size[0]}-top.png")
    page.mouse.wheel(0, 3000)
    page.wait_for_timeout(200)
    bar = page.locator(".deck-summary").bounding_box()
    assert bar["y"] <= 1, bar  # still stuck to the top after scrolling
    assert bar["height"] <= 0.2 * size[1], bar
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    rules = page.locator("p.hint", has_text="VI+ and IX+")
    assert rules.count() == 1 and page.locator(".deck-summary p.hint").count() == 0  # the rules: read once, above the path
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/deck-builder-{size[0]}.png")
    ctx.close()
