"""Goofspiel at 390 px: a player against the heuristic bot bids card after card on a phone; the
prize and the card buttons are in the first screen, nothing scrolls sideways, the bot's sealed
bid never shows before the reveal, and the match ends with placements."""
import pytest

from matches.models import Match
from tests.browser.pages import db, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_match_against_the_bot_on_a_phone(live_site, browser):
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_up(page, live_site, "flood-merrill-with-a-long-name", lang="de")
    page.goto(live_site + "/invitations/new/goofspiel/")
    page.select_option("select[name=players]", "2")
    page.fill("input[name=bots]", "1")
    page.fill("input[name=opt_cards]", "5")
    page.click("main form button[type=submit]")
    page.wait_for_selector("#live")
    page.wait_for_function("window.__liveSocketOpen === true")
    page.screenshot(path="/tmp/goofspiel-390-start.png")
    for rnd in range(1, 6):
        page.wait_for_selector(f".gops-board[data-round='{rnd}'] form[data-action=bid]", timeout=15_000)
        # Measured in one step: a live update (the bot's bid) may swap the board in between.
        prize_bottom, first_bottom = page.evaluate("""() => {
            const prize = [...document.querySelectorAll('.gops-card-prize')].pop();
            const first = document.querySelector('form[data-action=bid] button');
            return [prize.getBoundingClientRect().bottom + scrollY, first.getBoundingClientRect().bottom + scrollY];
        }""")
        assert prize_bottom <= 844 and first_bottom <= 844 * 1.5
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        # The bot bids at once: its card lies on the table, and nothing on the page names it.
        bot_bid = db(lambda: Match.objects.get().state["bids"])
        if any(b is not None for b in bot_bid):  # (on the real services the bid's frame may follow)
            page.wait_for_selector("[data-placed='1']", state="attached", timeout=15_000)
            assert page.locator("[data-my-bid]").count() == 0
        buttons = page.locator("form[data-action=bid] button")
        buttons.nth(buttons.count() // 2).click()
        if rnd < 5:
            page.wait_for_selector(f".gops-board[data-round='{rnd + 1}']", timeout=15_000)
    page.wait_for_selector("#placements li", timeout=15_000)
    assert page.locator(".gops-board[data-finished='1']").count() == 1
    assert page.locator(".gops-history tbody tr").count() == 5
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path="/tmp/goofspiel-390-end.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path="/tmp/goofspiel-1280-end.png")
    match = db(lambda: Match.objects.get())
    assert match.status == "finished" and match.options == {"cards": 5, "ties": "discard"}
