"""Moves over the table's own socket (table.js, live.js; matches/livepart.py): a move made over
the socket shows on the other page from the frame alone (no request for the live part), and
with the socket down the same click posts over HTTP and still shows on the other page. Neither
reloads a page."""
import pytest

from tests.browser.test_table import DESKTOP, open_as, start, version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def record_requests(page) -> list[str]:
    seen = []
    page.on("request", lambda r: seen.append(f"{r.method} {r.url}"))
    return seen


def click_a_design(page) -> None:
    page.locator("details.alc-design > summary").first.click()
    page.locator("form[data-action=design] button[type=submit]").first.click()


def test_a_move_over_the_socket_shows_on_both_pages_without_a_request(live_site, browser, make_user):
    match, mover, other = start(make_user, "alchemist")
    a = open_as(browser, live_site, mover, match, DESKTOP)
    b = open_as(browser, live_site, other, match, DESKTOP)
    requests = {"a": record_requests(a), "b": record_requests(b)}
    for page in (a, b):
        page.evaluate("window.__sameDocument = 'yes'")
    click_a_design(a)
    for page in (a, b):
        page.wait_for_selector("#live[data-version='1']", timeout=10_000)
        assert page.evaluate("window.__sameDocument") == "yes"  # no page load
    assert a.locator("#match-status").get_attribute("data-my-turn") == "0"
    assert b.locator("#match-status").get_attribute("data-my-turn") == "1"
    assert b.locator("#recap li").count() == 1
    # neither the move's POST nor a GET of the live part: the socket carried both
    assert not [r for r in requests["a"] + requests["b"] if "/act/" in r or "/live/" in r], requests
    # the other page answers over its socket too, from the part it was sent (its forms work)
    click_a_design(b)
    for page in (a, b):
        page.wait_for_selector("#live[data-version='2']", timeout=10_000)
        assert page.evaluate("window.__sameDocument") == "yes"
    assert a.locator("#match-status").get_attribute("data-my-turn") == "1"
    assert not [r for r in requests["a"] + requests["b"] if "/act/" in r or "/live/" in r], requests


def test_with_the_socket_down_a_move_posts_and_the_other_page_follows(live_site, browser, make_user):
    match, mover, other = start(make_user, "alchemist")
    b = open_as(browser, live_site, other, match, DESKTOP)
    # The mover's page has no socket at all (as behind a proxy that refuses websockets).
    a = open_as(browser, live_site, mover, match, DESKTOP, js=True, no_socket=True)
    requests = record_requests(a)
    for page in (a, b):
        page.evaluate("window.__sameDocument = 'yes'")
    click_a_design(a)
    a.wait_for_selector("#live[data-version='1']", timeout=10_000)
    b.wait_for_selector("#live[data-version='1']", timeout=10_000)
    assert [r for r in requests if r.startswith("POST") and r.endswith(f"/matches/{match.pk}/act/")]
    for page in (a, b):
        assert page.evaluate("window.__sameDocument") == "yes"
    assert b.locator("#match-status").get_attribute("data-my-turn") == "1"
    assert version(a) == version(b) == 1
