"""A match played to the end in two real browsers, then its replay and both profiles."""
import re

import pytest

from tests.browser.pages import follow_into_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "Geheim-Passwort-42"


def _sign_up(page, base, name):
    page.goto(base + "/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", f"{name}@example.org")
    page.select_option("select[name=language]", "en")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/lobby/")


def _play_to_the_end(pages, max_turns=60):
    for _ in range(max_turns):
        if pages[0].locator("#placements").count():
            return
        movers = [p for p in pages if p.locator("#match-status[data-my-turn='1']").count()]
        assert len(movers) == 1, "exactly one page must offer moves"
        version = int(movers[0].locator("#live").get_attribute("data-version"))
        movers[0].locator("#board form button").first.click()  # kartenduell: the first card
        for page in pages:
            page.wait_for_selector(f"#live[data-version='{version + 1}']", timeout=15_000)
    raise AssertionError("the match did not end")


def _wait_for_rating(page, url, attempts=40):
    for _ in range(attempts):
        page.goto(url)
        cell = page.locator("#per-game tr[data-game=kartenduell] td.rating")
        if cell.count() and re.search(r"\d", cell.inner_text()):
            return cell.inner_text()
        page.wait_for_timeout(250)
    raise AssertionError(f"no rating shown on {url}")


def test_finish_a_match_then_open_its_replay_and_both_profiles(live_site, browser):
    a = browser.new_context().new_page()
    b = browser.new_context().new_page()
    _sign_up(a, live_site, "ada")
    _sign_up(b, live_site, "bert")

    a.goto(live_site + "/invitations/new/kartenduell/")
    a.select_option("select[name=players]", "2")
    a.click("main form button[type=submit]")
    a.wait_for_selector("[data-invitation]")
    b.goto(a.url)
    b.click("#join-form button[type=submit]")
    b.wait_for_selector("#live")
    match_url = b.url
    follow_into_match(a, match_url)
    a.wait_for_function("window.__liveSocketOpen === true")
    b.wait_for_function("window.__liveSocketOpen === true")
    _play_to_the_end([a, b])

    # The replay: from the finished game page, step to the start and forward again.
    a.reload()
    a.click("#replay-link")
    a.wait_for_selector("#replay-controls")
    total = int(a.locator("#replay-controls").get_attribute("data-total"))
    assert total >= 6 and a.locator("#replay-controls").get_attribute("data-step") == str(total)
    a.click("#replay-first")
    a.wait_for_selector("#replay-controls[data-step='0']")
    a.click("#replay-next")
    a.wait_for_selector("#replay-controls[data-step='1']")
    assert a.locator("#log li").count() == 1
    a.select_option("#replay-seat select", label="bert")  # after the end: any seat's eyes
    a.wait_for_selector("#replay-controls[data-seat='%s']" % a.locator("#replay-seat select").input_value())
    assert a.locator("#replay-controls").get_attribute("data-step") == "1"

    # Both profiles, each seen by the other player; the rating arrives from the worker.
    for page, name in ((b, "ada"), (a, "bert")):
        rating = _wait_for_rating(page, f"{live_site}/users/{name}/")
        assert "provisional" in rating
        assert "Games played: 1" in page.locator("#summary").inner_text()
        assert page.locator("#finished-matches li[data-match]").count() == 1
        assert page.locator("#rating-chart-kartenduell").count() == 1
    b.goto(live_site + "/rankings/kartenduell/")
    assert b.locator("#ranking tr[data-user]").count() == 2
