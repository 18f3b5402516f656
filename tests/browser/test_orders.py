"""Orders on the table: a player queues a premove while waiting, in two clicks from
the board's own move forms; the other player moves; the premove is played in the same
transaction and both pages show it live, without a page load."""
import pytest

from matches.models import LogEntry, Match
from tests.browser.test_table import DESKTOP, PHONE, open_as, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_premove_queued_while_waiting_is_played_when_the_other_moves(live_site, browser, make_user, viewport):
    match, mover, waiter = start(make_user, "alchemist", names=("alma-with-a-rather-long-name", "bruno"))
    a = open_as(browser, live_site, mover, match, viewport)
    b = open_as(browser, live_site, waiter, match, viewport)
    for page in (a, b):
        page.evaluate("window.__sameDocument = 'yes'")

    # The waiting player: "Queue a move", then the board's move forms post to "queue".
    b.locator("#queue-move").click()
    b.wait_for_selector("#queue-banner", timeout=20_000)  # (CI runs two loaded browsers at once)
    b.screenshot(path=f"var/test-orders-queue-{viewport['width']}.png", full_page=True)  # to look at
    b.locator("details.alc-design > summary").last.click()
    form = b.locator("details.alc-design[open] form[data-action=design]")
    queued_cauldron = form.get_attribute("data-cauldron")
    form.locator("select[name=value]").select_option(index=0)  # the lowest tile: the mover takes the highest
    form.locator("button[type=submit]").click()
    b.wait_for_selector("#orders-queued li", timeout=10_000)
    assert b.locator("#queue-banner").count() == 0 and b.locator("#orders-queued li").count() == 1
    assert b.evaluate("window.__sameDocument") == "yes"
    b.screenshot(path=f"var/test-orders-queued-{viewport['width']}.png", full_page=True)
    assert b.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert a.locator("#orders-queued").count() == 0  # nothing of it on the other page
    assert Match.objects.get(pk=match.pk).version == 0

    # The mover designs in the first cauldron offered; the premove answers at once.
    a.locator("details.alc-design > summary").first.click()
    mover_form = a.locator("details.alc-design[open] form[data-action=design]")
    assert mover_form.get_attribute("data-cauldron") != queued_cauldron
    mover_form.locator("button[type=submit]").click()
    a.wait_for_selector("#live[data-version='2']", timeout=10_000)
    assert a.locator("#match-status").get_attribute("data-my-turn") == "1"  # the turn came back at once
    assert a.locator(f"article.alc-cauldron[data-cauldron='{queued_cauldron}'][data-owner]").count() == 1
    # The waiting player's page follows over the websocket: its move is played, the queue is empty.
    b.wait_for_selector("#live[data-version='2']", timeout=10_000)
    assert b.locator("#orders-queued").count() == 0
    assert b.locator(f"article.alc-cauldron.is-last[data-cauldron='{queued_cauldron}']").count() == 1
    for page in (a, b):
        assert page.evaluate("window.__sameDocument") == "yes"
    entries = list(LogEntry.objects.filter(match=match).order_by("seq"))
    assert [e.seat for e in entries] == [entries[0].seat, 1 - entries[0].seat]
    assert entries[1].action["cauldron"] == int(queued_cauldron)
