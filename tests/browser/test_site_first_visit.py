"""The site around the table, at 390x844 and 1280x800 in real chromium: the header's
links are all reachable (a menu on a phone), the chat fits its column and delivers every line
(also one sent while the socket was away), the lobby and My games follow without a reload, and a
first visit has a landing page, a help page and a guided match against a bot with hints.
``SITE_SHOTS=<dir>`` saves the screenshots."""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.browser.pages import db, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
SIZES = [("phone", PHONE), ("desktop", DESKTOP)]
SHOTS = os.environ.get("SITE_SHOTS")


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=False)


def in_thread(fn, *args):
    """ORM work whose pushes (async_to_sync) cannot run beside Playwright's loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args).result()


def context_as(browser, base, user, viewport):
    client = Client()
    client.force_login(user)
    ctx = browser.new_context(viewport=viewport)
    ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                      "url": base}])
    return ctx


def two_player_match(users, game):
    from lobby import services as lobby
    from matches.models import Match

    inv = lobby.create_invitation(users[0], game=game, players=2)
    inv = lobby.join(inv.pk, users[1])
    return Match.objects.get(pk=inv.match_id)


def table_as(browser, base, user, match, viewport=DESKTOP):
    """The other player at the table in a browser of their own. Their lines and moves go through
    the server, which pushes them: on the embedded default (in-memory channel layer) a push made
    in the test process never reaches the server process's sockets."""
    page = context_as(browser, base, user, viewport).new_page()
    page.goto(f"{base}/matches/{match.pk}/")
    page.wait_for_function("window.__liveSocketOpen === true")
    return page


def say(page, text: str) -> None:
    """A chat line written and sent on ``page`` (the server stores and pushes it)."""
    page.fill("#chat-text", text)
    page.click("#chat-form button[type=submit]")
    page.wait_for_selector(f"#chat-messages li:has-text('{text}')")


def _on_screen(page, selector):
    return page.evaluate("""sel => { const e = document.querySelector(sel); if (!e) return false;
        const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.left >= 0 &&
        r.right <= window.innerWidth && r.top >= 0 && r.bottom <= window.innerHeight; }""", selector)


HEADER_LINKS = ["#notif-bell", "header a.me", "header form[action$='/logout/'] button", "header form.lang button",
                "#site-nav a[href='/my-games/']", "#site-nav a[href='/help/']"]


@pytest.mark.parametrize("size,viewport", SIZES)
def test_every_header_link_is_reachable(live_site, browser, make_user, size, viewport):
    user = db(lambda: make_user("Maximiliane-Wolkenstein-Hohenberg"))
    ctx = context_as(browser, live_site, user, viewport)
    page = ctx.new_page()
    page.goto(live_site + "/lobby/")
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    toggle = page.locator("#menu-toggle")
    if size == "phone":
        # folded: the button is there, the links are not in the way
        assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
        assert not page.locator("#notif-bell").is_visible()
        toggle.click()
        assert toggle.get_attribute("aria-expanded") == "true"
        # the focus moves into the menu; every link lies on screen, none scrolls sideways
        assert page.evaluate("document.getElementById('site-nav').contains(document.activeElement)")
        shot(page, f"{size}-header-menu-open")
        for sel in HEADER_LINKS:
            assert _on_screen(page, sel), sel
        assert page.evaluate("document.getElementById('site-nav').scrollWidth <= document.getElementById('site-nav').clientWidth")
        page.keyboard.press("Escape")
        assert toggle.get_attribute("aria-expanded") == "false"
        assert page.evaluate("document.activeElement.id") == "menu-toggle"
        assert not page.locator("#notif-bell").is_visible()
        # the menu's links work: profile
        toggle.click()
        page.click("header a.me")
        page.wait_for_url("**/accounts/profile/")
    else:
        assert not toggle.is_visible()
        for sel in HEADER_LINKS:
            assert _on_screen(page, sel), sel
        shot(page, f"{size}-header")
    ctx.close()


def test_without_javascript_the_phone_header_wraps_every_link_on_screen(live_site, browser, make_user):
    user = db(lambda: make_user("Maximiliane-Wolkenstein-Hohenberg"))
    client = Client()
    client.force_login(user)
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False)
    ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                      "url": live_site}])
    page = ctx.new_page()
    page.goto(live_site + "/lobby/")
    assert not page.locator("#menu-toggle").is_visible()
    for sel in HEADER_LINKS:
        assert _on_screen(page, sel), sel
    ctx.close()


@pytest.mark.parametrize("game", ["alchemist", "orden"])
def test_chat_fits_and_marks_unread_where_folded(live_site, browser, make_user, game):
    users = db(lambda: [make_user("alma"), make_user("bruno")])
    match = in_thread(two_player_match, users, game)
    # desktop: the field is wide, "Send" on one line
    ctx = context_as(browser, live_site, users[0], DESKTOP)
    page = ctx.new_page()
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_function("window.__liveSocketOpen === true")
    field = page.locator("#chat-text").bounding_box()
    send = page.locator("#chat-form button[type=submit]")
    assert field["width"] >= 150, field
    assert send.bounding_box()["height"] < 2 * field["height"], "Send wraps"
    page.fill("#chat-text", "Guten Abend, " + "W" * 120)
    page.click("#chat-form button[type=submit]")
    page.wait_for_selector("#chat-messages li:has-text('Guten Abend')")
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    shot(page, f"desktop-chat-{game}")
    alma = page
    # phone: the chat is folded below the table; the "Chat" button in the table's head carries the unread mark
    ctx = context_as(browser, live_site, users[1], PHONE)
    page = ctx.new_page()
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_function("window.__liveSocketOpen === true")
    assert not page.locator("#chat-box").evaluate("d => d.open")
    jump = page.locator("#chat-jump")
    jump.wait_for(state="visible")
    # the count is filled in by script after load: waited for, not read at once
    page.wait_for_function("document.getElementById('chat-jump-unread').textContent === '1'")
    say(alma, "Noch eine Zeile")
    page.wait_for_function("document.getElementById('chat-jump-unread').textContent === '2'")
    assert _on_screen(page, "#chat-jump")
    # in the head row, in the flow: it floats over nothing (it hid cards and cauldrons in a corner)
    assert page.locator(".table-head #chat-jump").evaluate("e => getComputedStyle(e).position") == "static"
    shot(page, f"phone-chat-jump-{game}")
    jump.click()
    page.wait_for_function("document.getElementById('chat-box').open")
    page.wait_for_function("document.getElementById('chat-jump-unread').hidden")
    box = page.locator("#chat-text").bounding_box()
    assert box["width"] >= 150 and box["x"] + box["width"] <= PHONE["width"], box
    shot(page, f"phone-chat-open-{game}")
    ctx.close()


def test_a_chat_line_sent_while_the_socket_was_away_arrives_on_reconnect(live_site, browser, make_user):
    users = db(lambda: [make_user("alma"), make_user("bruno")])
    match = in_thread(two_player_match, users, "alchemist")
    state = {"cut": False, "sockets": []}

    def handler(ws):
        state["sockets"].append(ws)
        if not state["cut"]:
            ws.connect_to_server()  # else: the page believes it is connected, nothing passes

    ctx = context_as(browser, live_site, users[1], DESKTOP)
    page = ctx.new_page()
    page.route_web_socket("**/ws/**", handler)
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_function("window.__liveSocketOpen === true")
    alma = table_as(browser, live_site, users[0], match)
    say(alma, "live line")
    page.wait_for_selector("#chat-messages li:has-text('live line')")
    # the socket is cut off from the server; a line is sent meanwhile and not pushed to it
    state["cut"] = True
    state["sockets"][-1].close()
    page.wait_for_timeout(300)
    say(alma, "line while away")
    page.wait_for_timeout(500)
    assert page.locator("#chat-messages li:has-text('line while away')").count() == 0
    state["cut"] = False
    state["sockets"][-1].close()  # the next reconnect reaches the server: hello, state, fetch
    page.wait_for_selector("#chat-messages li:has-text('line while away')", timeout=15_000)
    texts = page.locator("#chat-messages li").all_inner_texts()
    # (another player's lines carry the "report" link, as the server renders them)
    assert [t for t in texts if "line" in t] == ["alma: live line report", "alma: line while away report"], texts
    away = page.locator("#chat-messages li:has-text('line while away')")
    link = away.locator("a.report-link").get_attribute("href")
    assert link == f"/reports/new/?chat={away.get_attribute('data-id')}&match={match.pk}&next=/matches/{match.pk}/"
    ctx.close()


def test_the_own_line_and_a_line_pushed_meanwhile_both_stay(live_site, browser, make_user):
    """The chat form's answer replaced the list as rendered: a line pushed between that render
    and the swap vanished (the 1 of 19 lines). Now it is put back, and nothing is doubled."""
    users = db(lambda: [make_user("alma"), make_user("bruno")])
    match = in_thread(two_player_match, users, "alchemist")
    alma = table_as(browser, live_site, users[0], match)  # her own context: bruno's route does not hold her line
    ctx = context_as(browser, live_site, users[1], DESKTOP)
    page = ctx.new_page()
    # hold the chat form's answer until the other player's line has been pushed
    held = {}

    def hold(route):
        held["route"] = route

    page.route("**/chat/", hold)
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_function("window.__liveSocketOpen === true")
    page.fill("#chat-text", "my own line")
    page.click("#chat-form button[type=submit]")
    for _ in range(50):
        if "route" in held:
            break
        page.wait_for_timeout(100)
    response = held["route"].fetch()  # the server answers now: the list without the next line
    say(alma, "pushed meanwhile")
    page.wait_for_selector("#chat-messages li:has-text('pushed meanwhile')")
    held["route"].fulfill(response=response)
    page.wait_for_selector("#chat-messages li:has-text('my own line')")
    page.wait_for_timeout(800)  # the own line's frame comes too: not doubled
    texts = page.locator("#chat-messages li").all_inner_texts()
    assert texts.count("bruno: my own line") == 1 and texts.count("alma: pushed meanwhile report") == 1, texts
    ctx.close()


@pytest.mark.parametrize("size,viewport", SIZES)
def test_the_lobby_and_my_games_follow_without_a_reload(live_site, browser, make_user, size, viewport):
    from lobby import services as lobby

    users = db(lambda: [make_user("alma"), make_user("bruno"), make_user("carla")])
    match = in_thread(two_player_match, users[:2], "alchemist")
    mover = next(s.user for s in db(lambda: list(match.seats.select_related("user"))) if s.seat == match.to_move[0])
    waiter = users[1] if mover == users[0] else users[0]
    ctx = context_as(browser, live_site, waiter, viewport)
    lobby_page, games_page = ctx.new_page(), ctx.new_page()
    lobby_page.goto(live_site + "/lobby/")
    games_page.goto(live_site + "/my-games/")
    games_page.wait_for_function("window.__liveSocketOpen === true")
    row = games_page.locator(f"#my-games tr[data-match='{match.pk}']")
    assert "waiting for others" in row.inner_text()
    loads = games_page.evaluate("performance.getEntriesByType('navigation').length")
    # a new invitation appears in the open lobby (polled every 5 s)
    inv = in_thread(lambda: lobby.create_invitation(users[2], game="orden", players=3).pk)
    lobby_page.wait_for_selector(f"#invitations [data-invitation='{inv}']", timeout=15_000)
    shot(lobby_page, f"{size}-lobby-live")
    # the other player moves (at the table, so the server pushes): the badge changes and the
    # row says "Your turn" at once
    table = table_as(browser, live_site, mover, match)
    alchemist_move(table)
    games_page.wait_for_selector(f"#my-games tr.my-turn[data-match='{match.pk}']", timeout=10_000)
    assert "Your turn" in row.inner_text()
    assert games_page.locator("#turn-badge").inner_text() == "1"
    assert games_page.evaluate("performance.getEntriesByType('navigation').length") == loads
    assert games_page.url.endswith("/my-games/")
    shot(games_page, f"{size}-my-games-live")
    ctx.close()


def alchemist_move(page) -> None:
    """A pass when the board offers one, else the first design (two players' first round
    allows only designs worth 5 or more)."""
    passes = page.locator("form[data-action=pass] button:enabled")  # the others show disabled, with the reason
    if passes.count():
        passes.last.click()
        return
    design = page.locator("details.alc-design").first
    design.locator("summary").click()
    form = design.locator("form[data-action=design]")
    form.locator("input[name=recipe]").first.check()
    form.locator("button[type=submit]").click()


@pytest.mark.parametrize("size,viewport", SIZES)
def test_a_first_visit_landing_help_and_a_guided_match(live_site, browser, size, viewport):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    page.goto(live_site + "/")
    assert page.url.rstrip("/") == live_site  # a landing page, not the lobby
    for sel in ("#landing-signup", "#landing-learn", "#landing-watch"):
        assert page.locator(sel).is_visible(), sel
    assert page.locator(".landing-games [data-game=alchemist]").count() == 1
    assert page.locator(".landing-games [data-game=orden]").count() == 1
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    shot(page, f"{size}-landing")
    page.goto(live_site + "/help/")
    assert page.locator("main h1").inner_text() == "Help"
    assert page.locator("a[href='/games/alchemist/rules/']").count() and page.locator("a[href='/games/orden/rules/']").count()
    shot(page, f"{size}-help")
    page.goto(live_site + "/")
    page.click("#landing-signup")
    sign_up(page, live_site, f"neu{size}")
    from games import registry

    for game in ("alchemist", "orden"):
        first_hint = [en.split(":")[0] for en, _ in registry.get(game).guide()["hints"].values()]
        page.goto(live_site + "/learn/")
        page.click(f"#learn-{game} button[type=submit]")
        page.wait_for_selector("#guide-hint")
        # read together, in one task of the page: the bot's move can swap the live part (strip and
        # hint at once) between two separate reads
        my_turn, hint = page.evaluate("""() => [
            document.querySelector("#match-status").dataset.myTurn === "1",
            document.getElementById("guide-hint").textContent]""")  # the steps fold behind a summary
        if my_turn:
            assert "What you can do now" in hint and any(f"{word}:" in hint for word in first_hint), hint
        shot(page, f"{size}-guided-{game}")
        # a move (the last legal form on the board), the bot answers, the hint is there again
        if game == "alchemist":
            page.wait_for_selector("#match-status[data-my-turn='1']", timeout=20_000)
            version = int(page.locator("#live").get_attribute("data-version"))
            alchemist_move(page)
            page.wait_for_function(f"Number(document.getElementById('live').dataset.version) >= {version + 2}",
                                   timeout=30_000)
            page.wait_for_selector("#match-status[data-my-turn='1']", timeout=20_000)
            assert "What you can do now" in page.locator("#guide-hint").inner_text()
    ctx.close()
