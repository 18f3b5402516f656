"""The game table: board and move controls in the first screen at 1280x800 and
390x844, moves swapped in place (no navigation, the scroll position kept, the last move marked),
the other player's page following over the websocket, refusals shown in place, keyboard moves,
and the plain form post without JavaScript."""
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.test import Client

from lobby import services as lobby
from matches.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# what the player to move can use: the board's forms (buttons, the design drawers' summaries)
MOVE_CONTROLS = "#board form button, #board details.alc-design > summary"


def start(make_user, game, names=("alma", "bruno")):
    """Starts the match in a worker thread: Playwright's loop runs in the test's thread, and the
    start's pushes (async_to_sync) cannot run beside a running loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(_start, make_user, game, names).result()


def _start(make_user, game, names):
    users = [make_user(n) for n in names]
    invitation = lobby.create_invitation(users[0], game=game, players=len(users))
    for user in users[1:]:
        invitation = lobby.join(invitation.pk, user)
    match = Match.objects.get(pk=invitation.match_id)
    by_seat = {s.seat: s.user for s in match.seats.select_related("user")}
    return match, by_seat[match.to_move[0]], [u for u in users if u != by_seat[match.to_move[0]]][0]


def open_as(browser, base, user, match, viewport, js=True, no_socket=False):
    client = Client()
    client.force_login(user)
    ctx = browser.new_context(viewport=viewport, java_script_enabled=js)
    ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                      "url": base}])
    if no_socket:  # a browser (or a proxy) without websockets: the page cannot open one
        ctx.add_init_script("window.WebSocket = function () { throw new Error('no websockets'); };")
    page = ctx.new_page()
    page.goto(f"{base}/matches/{match.pk}/")
    if js and not no_socket:
        page.wait_for_function("window.__liveSocketOpen === true")
    return page


def first_screen_controls(page) -> int:
    """How many move controls lie wholly inside the viewport without scrolling."""
    return page.evaluate("""sel => {
        window.scrollTo(0, 0);
        return [...document.querySelectorAll(sel)].filter(e => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
        }).length; }""", MOVE_CONTROLS)


def version(page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


@pytest.mark.parametrize("game", ["alchemist", "orden"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_movers_controls_are_in_the_first_screen(live_site, browser, make_user, game, viewport):
    match, mover, other = start(make_user, game)
    page = open_as(browser, live_site, mover, match, viewport)
    page.screenshot(path=f"var/test-table-{game}-{viewport['width']}.png")  # to look at
    if not first_screen_controls(page):
        pytest.fail("no move control in the first screen (screenshot in var/)")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert page.locator("#rules-link").get_attribute("href") == f"/games/{game}/rules/"
    watcher = open_as(browser, live_site, other, match, viewport)
    assert first_screen_controls(watcher) == 0  # nothing to click for the waiting player


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_move_swaps_in_place_and_the_other_page_follows(live_site, browser, make_user, viewport):
    match, mover, other = start(make_user, "alchemist")
    a = open_as(browser, live_site, mover, match, viewport)
    b = open_as(browser, live_site, other, match, viewport)
    for page in (a, b):
        page.evaluate("window.__sameDocument = 'yes'")
    # Two players, first round: a design (worth 5 or more) in the first offered cauldron.
    a.locator("details.alc-design > summary").first.click()
    form = a.locator("form[data-action=design]").first
    cauldron = form.get_attribute("data-cauldron")
    button = form.locator("button[type=submit]")
    button.scroll_into_view_if_needed()
    a.evaluate("window.scrollBy(0, 40)")  # somewhere down the page, not at its top
    assert a.evaluate("window.scrollY") > 0
    pot = f"article.alc-cauldron[data-cauldron='{cauldron}']"
    top = a.locator(pot).evaluate("e => e.getBoundingClientRect().top")
    button.click()
    a.wait_for_selector("#live[data-version='1']", timeout=10_000)
    assert a.evaluate("window.__sameDocument") == "yes"  # no page load
    # no jump: the cauldron stays where the player looked (not the top of a reloaded page)
    assert a.evaluate("window.scrollY") > 0
    assert abs(a.locator(pot).evaluate("e => e.getBoundingClientRect().top") - top) <= 2
    assert a.locator(f"article.alc-cauldron.is-last[data-cauldron='{cauldron}']").count() == 1
    assert a.locator("#match-status").get_attribute("data-my-turn") == "0"
    # The other page: pushed over the websocket, swapped without a navigation, the move marked.
    b.wait_for_selector("#live[data-version='1']", timeout=10_000)
    assert b.evaluate("window.__sameDocument") == "yes"
    assert b.locator(f"article.alc-cauldron.is-last[data-cauldron='{cauldron}']").count() == 1
    assert b.locator("#recap li").count() == 1  # "since your last move": the design
    assert b.locator("#match-status").get_attribute("data-my-turn") == "1"

    # Keyboard: the second player opens a design drawer and submits it with the keyboard.
    summary = b.locator("details.alc-design > summary").first
    summary.focus()
    b.keyboard.press("Enter")
    submit = b.locator("details.alc-design[open] form button[type=submit]").first
    submit.focus()
    b.keyboard.press("Enter")
    b.wait_for_selector("#live[data-version='2']", timeout=10_000)
    a.wait_for_selector("#live[data-version='2']", timeout=10_000)
    assert b.evaluate("window.__sameDocument") == "yes" and a.evaluate("window.__sameDocument") == "yes"
    assert b.evaluate("document.activeElement.id") == "board"  # focus stays at the table


def test_a_stale_move_is_refused_in_place(live_site, browser, make_user):
    match, mover, _ = start(make_user, "orden")
    page = open_as(browser, live_site, mover, match, DESKTOP)
    page.evaluate("window.__sameDocument = 'yes'")
    # another tab moved meanwhile: this page's forms still carry version 0
    page.evaluate("document.querySelectorAll('#board input[name=version]').forEach(i => i.value = '7')")
    page.locator("#board form:has(input[name=action]) button").first.click()
    page.wait_for_selector("#move-messages li.error", timeout=10_000)
    assert "changed meanwhile" in page.locator("#move-messages").inner_text()
    assert page.evaluate("window.__sameDocument") == "yes"
    assert version(page) == 0 and Match.objects.get(pk=match.pk).version == 0


def test_without_javascript_a_move_posts_and_redirects(live_site, browser, make_user):
    match, mover, _ = start(make_user, "orden")
    page = open_as(browser, live_site, mover, match, PHONE, js=False)
    with page.expect_navigation():
        page.locator("#board form:has(input[name=action]) button").first.click()
    assert page.url.endswith(f"/matches/{match.pk}/")
    assert version(page) == 1 and Match.objects.get(pk=match.pk).version == 1
