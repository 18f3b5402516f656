"""The authors' hot-seat table in the browser (GAME_AUTHOR_TOOLS on): start a match of a real
game, play as two seats by switching with one click, inspect the state panel; at a phone's and a
desktop's width."""
import json
import os

import pytest
from django.conf import settings
from django.test import Client

from matches.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def author_site(request, monkeypatch):
    monkeypatch.setenv("GAME_AUTHOR_TOOLS", "1")  # read by the served site's settings
    return request.getfixturevalue("live_site")


def test_play_two_seats_by_switching_and_inspect_the_state(author_site, browser, make_user):
    base = author_site
    author = make_user("hotseat_author")
    client = Client()
    client.force_login(author)
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                      "url": base}])
    page = ctx.new_page()
    page.goto(f"{base}/author/hotseat/")
    page.select_option("#hotseat-game", "alchemist")
    page.fill("#hotseat-players", "2")
    page.click("#hotseat-start")
    page.wait_for_selector("#hotseat-seats")
    match = Match.objects.get()
    first = match.to_move[0]
    assert page.get_attribute("#hotseat", "data-seat") == str(first)
    if os.environ.get("HOTSEAT_SHOTS"):
        page.screenshot(path=f"{os.environ['HOTSEAT_SHOTS']}/hotseat-phone.png", full_page=True)
    # the first seat designs a recipe through the board's own form
    design(page)
    page.wait_for_selector(f"#hotseat[data-seat='{1 - first}']")  # the table follows the turn
    match.refresh_from_db()
    assert match.version == 1 and match.to_move == [1 - first]
    # switch back to the first seat with one click: it waits, its view hides the other's screen
    page.click(f"#hotseat-seats a[data-seat='{first}']")
    page.wait_for_selector(f"#hotseat[data-seat='{first}'] #hotseat-inspect")
    assert page.locator("#hotseat-seats a[aria-current=page]").get_attribute("data-seat") == str(first)
    assert page.locator("#board form button[type=submit]:not([disabled])").count() == 0  # waiting: no move
    # ... switch to the seat to move and design too
    page.click(f"#hotseat-seats a[data-seat='{1 - first}']")
    page.wait_for_selector(f"#hotseat[data-seat='{1 - first}']")
    design(page)
    page.wait_for_function("document.querySelector('#hotseat-live').dataset.version === '2'")
    # the state panel holds the whole state, secrets included; the events the log's
    page.click("#hotseat-state summary")
    state = json.loads(page.inner_text("#hotseat-state pre"))
    match.refresh_from_db()
    assert state == match.state and "bag" in json.dumps(state)
    page.click("#hotseat-events summary")
    assert page.locator("#hotseat-events li[data-seq]").count() == 2
    page.click("#hotseat-views summary")
    assert page.locator("#hotseat-views pre[data-view]").count() == 3  # spectator + two seats
    if os.environ.get("HOTSEAT_SHOTS"):
        page.screenshot(path=f"{os.environ['HOTSEAT_SHOTS']}/hotseat-phone-open.png", full_page=True)
    # the table's own parts fit a phone (the board is the game's: its width is the game page's)
    for part in ("#hotseat-seats", "#hotseat-inspect", "#hotseat-views pre >> nth=0", "#hotseat-events li >> nth=0"):
        box = page.locator(part).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (part, box)
    if os.environ.get("HOTSEAT_SHOTS"):
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=f"{os.environ['HOTSEAT_SHOTS']}/hotseat-desktop.png", full_page=True)
    ctx.close()


def design(page):
    """Alchemist's first open "Design…" drawer, submitted with its preselected recipe and value."""
    page.click("#board details.alc-design > summary >> nth=0")
    page.click("#board details.alc-design[open] form button[type=submit]")
