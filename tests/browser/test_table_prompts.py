"""The table when another seat is asked, at 390x844 and 1280x800 on the
real site (daphne, the test database, the live websocket):
- Der Orden: the seat asked at an Aktion (the reaction window, then the payment for its reaction)
  finds the prompt's controls within the first screen (desktop) or the first one and a half
  (phone), inside the board (the hand and the seats around it);
- the mover's page, when its Aktion opens the window for the opponent (its own click) and when
  the opponent's answer arrives live: the move box keeps its place and height, nothing of the
  board moves on screen;
- a chat line that arrives live (or is fetched after a reconnect) carries the "report" link that
  a server-rendered line has, and it files a report on that line.
``SITE_SHOTS=<dir>`` saves the screenshots."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.browser.pages import db
from tests.browser.test_site_first_visit import context_as, in_thread, say, two_player_match
from tests.browser.test_table_layout import SHIFT_OBSERVER

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "games" / "orden"))

from orden_scenario import Scenario  # noqa: E402
from test_orden_reactions import actor, objector  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE, DESKTOP = (390, 844), (1280, 800)
VIEWPORTS = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390x844", "1280x800"])
SHOTS = os.environ.get("SITE_SHOTS")
# Long names: the strip, the move box's "To move:" and the prompt must still keep their lines.
NAMES = ("Maximiliane-Wolkenstein-Hohenberg", "Bartholomaeus-von-Langenstein-Ost")


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png")


def _orden_before_an_aktion(make_user):
    """A 2-player Der Orden match where seat 0 can activate Knappe's ascent (an Aktion that opens
    the reaction window) and seat 1 holds Einspruch (a reaction that costs 2 T from the hand: data version 20's).
    Seat 1 has just ended its turn (a real move: the page shows a last move, as in any match).
    Returns (match, {seat: user}, Knappe's card id)."""
    from matches import services
    from matches.models import Match, Seat

    users = [make_user(n) for n in NAMES]
    for u in users:
        u.profile.language = "en"
        u.profile.save()
    match = two_player_match(users, "orden")
    sc = Scenario([actor(hand=["Mächtige Statur", "Mächtige Statur", "Kraft", "Demut", "Demut", "Demut"]),
                   objector(hand=["Einspruch", "Treueschwur", "Treueschwur", "Silberling", "Demut", "Demut"])],
                  cur=1, version=20)  # version 20's Einspruch is paid for (21's costs only itself, and seat 1 has moved)
    Match.objects.filter(pk=match.pk).update(state=sc.state, to_move=[1])
    Seat.objects.filter(match=match).update(to_move=False, to_move_since=None)
    Seat.objects.filter(match=match, seat=1).update(to_move=True)
    by_seat = {s.seat: s.user for s in match.seats.select_related("user")}
    match.refresh_from_db()
    services.submit_action(match.pk, by_seat[1], {"type": "end_turn"}, match.version)
    return match, by_seat, sc._find(0, "Knappe")


def _open(browser, base, user, match, size):
    page = context_as(browser, base, user, {"width": size[0], "height": size[1]}).new_page()
    page.goto(f"{base}/matches/{match.pk}/")
    page.wait_for_function("window.__liveSocketOpen === true")
    return page


def _button(page, want):
    """The board's button of the first offered action for which ``want(action)`` holds."""
    fields = page.locator("#board form input[name=action]")
    actions = [json.loads(v) for v in fields.evaluate_all("els => els.map(e => e.value)")]
    i = next((i for i, a in enumerate(actions) if want(a)), None)
    assert i is not None, f"not offered: {actions}"
    return fields.nth(i).locator("xpath=..").locator("button")


def _version(page):
    return page.locator("#live").get_attribute("data-version")


def _wait_new(page, version):
    page.wait_for_selector(f"#live:not([data-version='{version}'])", timeout=15_000)
    page.wait_for_timeout(300)  # table.js puts the view back after the swap


def _doc_tops(page, selector):
    return page.locator(selector).evaluate_all("els => els.map(e => e.getBoundingClientRect().top + scrollY)")


# -- 1. the asked seat's prompt within the first screen ------------------------------------------
@VIEWPORTS
def test_the_reaction_and_its_payment_are_asked_within_the_first_screen(live_site, browser, make_user, size):
    match, by_seat, knappe = db(lambda: _orden_before_an_aktion(make_user))
    mover = _open(browser, live_site, by_seat[0], match, size)
    asked = _open(browser, live_site, by_seat[1], match, size)
    limit = size[1] if size == DESKTOP else 1.5 * size[1]
    version = _version(asked)
    _button(mover, lambda a: a == {"type": "activate", "card": knappe, "ability": 1}).click()
    _wait_new(asked, version)  # the window opens on the asked seat's page, live
    assert asked.locator("#match-status[data-my-turn='1']").count() == 1
    asked.wait_for_selector(".ord-orders[data-kind=reactions]:not([hidden])")  # orders.js shows them
    controls = {"react": _doc_tops(asked, "#board .ord-pending .ord-reacts button"),
                "decline": _doc_tops(asked, "#board .ord-pending .ord-decline button"),
                "orders": _doc_tops(asked, "#board .ord-pending .ord-orders button")}
    assert all(controls.values()), controls
    late = {k: [round(t) for t in v if t >= limit] for k, v in controls.items() if max(v) >= limit}
    assert not late, f"reaction controls below {limit:.0f} px at {size}: {late}"
    # the board stays around the prompt: it is inside the board's move box, the hand and both
    # seats follow it, and nothing scrolls sideways
    _board_around(asked, ".ord-pending", size)
    shot(asked, f"orden-reaction-asked-{size[0]}")

    version = _version(asked)
    _button(asked, lambda a: a["type"] == "react").click()
    _wait_new(asked, version)  # its own answer: the payment for the reaction is asked now
    assert asked.locator("#board .ord-paying").count() == 1
    pay = _doc_tops(asked, "#board .ord-paying button")
    assert pay and max(pay) < limit, f"payment controls at {[round(t) for t in pay]}, limit {limit:.0f} at {size}"
    _board_around(asked, ".ord-paying", size)
    shot(asked, f"orden-reaction-paying-{size[0]}")
    for page in (mover, asked):
        page.context.close()


def _board_around(page, prompt, size):
    box = page.locator(f"#ord-move {prompt}")
    assert box.count() == 1, f"{prompt} is not in the move box"
    bottom = box.evaluate("e => e.getBoundingClientRect().bottom + scrollY")
    hand = _doc_tops(page, "#board .ord-hand")
    seats = _doc_tops(page, "#board section.ord-seat[data-seat]")
    assert hand and hand[0] > bottom and len(seats) >= 2 and min(seats) > bottom
    assert page.locator(".ord-hand .ord-card").count() >= 5
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]


# -- 2. the mover's page does not move when the opponent is asked -----------------------------------
FIXED = ["#board", "#ord-move", "#ord-move .ord-general", ".ord-hand", ".ord-hand .ord-card",
         "section.ord-seat[data-seat='0']:not(.ord-hand)", "section.ord-seat[data-seat='1']", "#table-controls"]


def _screen(page):
    """On-screen top of each fixed part of the table and the move box's height (px)."""
    out = {s: page.locator(s).first.evaluate("e => Math.round(e.getBoundingClientRect().top)")
           for s in FIXED if page.locator(s).count()}
    out["move box height"] = page.locator("#ord-move").evaluate("e => Math.round(e.getBoundingClientRect().height)")
    return out


def _moved(before, after):
    return {k: (before[k], after.get(k)) for k in before if after.get(k) is None or abs(after[k] - before[k]) > 3}


@VIEWPORTS
def test_the_movers_box_stays_when_the_opponent_is_asked(live_site, browser, make_user, size):
    match, by_seat, knappe = db(lambda: _orden_before_an_aktion(make_user))
    mover = _open(browser, live_site, by_seat[0], match, size)
    asked = _open(browser, live_site, by_seat[1], match, size)
    # (a) the mover's own click opens the window for the opponent: the mover looks at the card
    # it clicked (table.js keeps that card where it was); the rest must not move around it
    use = _button(mover, lambda a: a == {"type": "activate", "card": knappe, "ability": 1})
    use.scroll_into_view_if_needed()
    mover.evaluate(SHIFT_OBSERVER)
    before = _screen(mover)
    version = _version(mover)
    use.click()
    _wait_new(mover, version)
    assert mover.locator("#match-status[data-my-turn='0']").count() == 1  # the opponent is asked now
    after = _screen(mover)
    moved = _moved(before, after)
    assert not moved, f"{size}: moved on the mover's screen when the opponent was asked: {moved}"
    shot(mover, f"orden-mover-window-open-{size[0]}")
    # (b) the opponent's reaction arrives live (its payment is asked next): the mover reads the
    # top of the page meanwhile
    mover.evaluate("window.scrollTo(0, 0)")
    mover.wait_for_timeout(200)
    mover.evaluate("window.__shifts = []")
    before = _screen(mover)
    version = _version(mover)
    _button(asked, lambda a: a["type"] == "react").click()
    _wait_new(mover, version)
    after = _screen(mover)
    moved = _moved(before, after)
    assert not moved, f"{size}: moved on the mover's screen when the opponent's answer arrived: {moved}"
    shifts = mover.evaluate("window.__shifts.reduce((a, b) => a + b, 0)")
    print(f"{size}: layout-shift sum across the live update {shifts:.4f}")
    assert shifts < 0.01, shifts
    shot(mover, f"orden-mover-answer-arrived-{size[0]}")
    for page in (mover, asked):
        page.context.close()


# -- 3. a chat line that arrives live can be reported -------------------------------------------
LONG_LINE = ("Guten Abend! Ich spiele heute Abend den Knappen aus und hoffe, dass niemand Einspruch erhebt; "
             "sonst wird es eine lange Nacht am Spieltisch mit sehr vielen Worten ohne Pause")


@VIEWPORTS
def test_a_live_chat_line_carries_the_report_link(live_site, browser, make_user, size):
    from matches.models import ChatMessage
    from moderation.models import Report

    users = db(lambda: [make_user(n) for n in NAMES])
    match = in_thread(two_player_match, users, "orden")
    alma = _open(browser, live_site, users[0], match, DESKTOP)
    bruno = _open(browser, live_site, users[1], match, size)
    say(alma, LONG_LINE)
    line_id = db(lambda: ChatMessage.objects.get(text=LONG_LINE).pk)
    line = bruno.locator(f"#chat-messages li[data-id='{line_id}']")
    line.wait_for(state="attached", timeout=15_000)
    link = line.locator("a.report-link")
    assert link.count() == 1, line.inner_html()
    # the same link a server-rendered line carries (the writer's own line has none)
    assert link.get_attribute("href") == f"/reports/new/?chat={line_id}&match={match.pk}&next=/matches/{match.pk}/"
    assert link.text_content() == "report" and link.get_attribute("rel") == "nofollow"
    assert alma.locator(f"#chat-messages li[data-id='{line_id}'] a.report-link").count() == 0
    if size == PHONE:  # the chat is folded below the table: the corner button opens it
        bruno.locator("#chat-jump").click()
    shot(bruno, f"chat-live-line-{size[0]}")
    assert bruno.evaluate("document.documentElement.scrollWidth") <= size[0]
    bruno.locator(f"#chat-messages li[data-id='{line_id}'] a.report-link").click()
    bruno.wait_for_url("**/reports/new/**")
    bruno.select_option("select[name=category]", "abuse")
    bruno.fill("textarea[name=reason]", "Test: a line that arrived live")
    bruno.click("main form button[type=submit]")
    bruno.wait_for_url(f"{live_site}/matches/{match.pk}/")
    report = db(lambda: Report.objects.select_related("reporter", "reported").get())
    assert (report.chat_message_id, report.match_id) == (line_id, match.pk)
    assert (report.reporter.username, report.reported.username, report.chat_text) == (NAMES[1], NAMES[0], LONG_LINE)
    for page in (alma, bruno):
        page.context.close()
