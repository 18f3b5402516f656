"""The notification UI in real browsers: the bell's unread count, the "your turn" badge and the
tab title follow a move live (no reload) on another page; the centre marks read; the settings
page subscribes this browser to web push (and says so clearly when the browser cannot)."""
import json

import pytest

from notifications.models import Notification, PushSubscription
from tests.browser.pages import create_invitation, current_mover, db, follow_into_match, join, sign_up
from tests.conftest import wait_for
from tests.notifications.helpers import browser_keys

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LIVE = 15_000  # ms for a frame to arrive


def bell_count(page) -> int:
    return int(page.locator("#notif-badge").get_attribute("data-count"))


def wait_bell(page, count):
    badge = "#notif-badge"
    page.wait_for_selector(f"{badge}[data-count='{count}']", state="attached", timeout=LIVE)
    assert page.locator(badge).is_hidden() == (count == 0)


def wait_turn(page, count, title):
    page.wait_for_selector(f"#turn-badge[data-count='{count}']", state="attached", timeout=LIVE)
    assert page.locator("#turn-badge").is_hidden() == (count == 0)
    page.wait_for_function("t => document.title === t", arg=title, timeout=LIVE)


def move(page):
    version = int(page.locator("#live").get_attribute("data-version"))
    page.locator("#board form button").first.click()  # kartenduell: play the first card
    page.wait_for_selector(f"#live[data-version='{version + 1}']", timeout=LIVE)


def test_bell_turn_badge_and_title_follow_moves_live(live_site, browser):
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    a, b = ctx_a.new_page(), ctx_b.new_page()
    sign_up(a, live_site, "ada")
    sign_up(b, live_site, "bert")
    match_url = join(b, create_invitation(a, live_site, "kartenduell", 2))
    follow_into_match(a, match_url)
    mover = current_mover([a, b])
    assert mover is not None
    waiter = b if mover is a else a
    waiter_ctx = ctx_b if mover is a else ctx_a
    waiter_name = "bert" if mover is a else "ada"
    mover.wait_for_function("window.__liveSocketOpen === true")

    # Their "has started" line is written by the follow-up, which may come after they opened
    # the match; once it exists, opening the match again reads it.
    wait_for(lambda: db(lambda: Notification.objects.filter(user__username=waiter_name,
                                                            kind="match_started").exists()), timeout=LIVE / 1000)
    waiter.goto(match_url)

    # The waiting player looks at "My games", not at the match: nothing waits for them yet.
    waiter.goto(live_site + "/my-games/")
    waiter.wait_for_function("window.__liveSocketOpen === true")
    assert waiter.title() == "My games · Spieltisch"
    assert waiter.locator("#turn-badge").is_hidden()
    before = bell_count(waiter)  # 0: opening the match read its "has started" line
    assert before == 0
    assert before == db(lambda: Notification.objects.filter(user__username=waiter_name, read_at__isnull=True).count())
    waiter.evaluate("window.__sameDocument = 'yes'")

    move(mover)

    # Live, on the other page: bell +1 (with the new line as its tooltip), badge and title "(1)".
    wait_bell(waiter, before + 1)
    wait_turn(waiter, 1, "(1) My games · Spieltisch")
    assert waiter.locator("#notif-bell").get_attribute("title").startswith("Your turn in Card duel")
    assert waiter.evaluate("window.__sameDocument") == "yes", "the page was reloaded"

    # The centre, in a second tab: the new "your turn" line is unread; "mark all as read" reads
    # it and the first tab's bell follows live; the line still leads into the match.
    centre = waiter_ctx.new_page()
    centre.goto(live_site + "/notifications/")
    assert centre.title() == "(1) Notifications · Spieltisch"
    assert centre.locator("#notification-list li.unread").count() == before + 1
    turn_item = centre.locator("#notification-list li.unread[data-kind=your_turn]")
    assert turn_item.count() == 1 and "Your turn in Card duel" in turn_item.inner_text()
    centre.click("#read-all")
    centre.wait_for_selector("#notification-list li.unread", state="detached")
    assert bell_count(centre) == 0
    wait_bell(waiter, 0)
    assert waiter.locator("#notif-bell").get_attribute("title") == "Notifications"
    centre.locator("#notification-list li[data-kind=your_turn] a").click()
    centre.wait_for_url(match_url)
    # Reading is not moving: it is still their turn.
    assert waiter.title() == "(1) My games · Spieltisch" and waiter.locator("#turn-badge").is_visible()

    # They move (in the match tab); the "My games" tab loses badge and title prefix live, and
    # the other player's bell and badge rise on the match page.
    mover_bell = bell_count(mover)
    mover_name = "ada" if waiter_name == "bert" else "bert"
    # The bell counts the centre's entries, one per match: the turn adds one unless this match
    # already had an unread line (its "has started", written by a worker after the page opened).
    match_unread = db(lambda: Notification.objects.filter(user__username=mover_name, read_at__isnull=True,
                                                          match_id__isnull=False).exists())
    centre.goto(match_url)
    centre.wait_for_function("window.__liveSocketOpen === true")
    move(centre)
    wait_turn(waiter, 0, "My games · Spieltisch")
    wait_bell(mover, mover_bell + (0 if match_unread else 1))
    mover.wait_for_function("() => document.querySelector('#notif-bell').title.startsWith('Your turn in Card duel')",
                            timeout=LIVE)
    mover.wait_for_selector("#turn-badge[data-count='1']", state="visible", timeout=LIVE)
    assert mover.title().startswith("(1) Card duel #")
    assert waiter.evaluate("window.__sameDocument") == "yes"


def _push_count(page) -> str:
    return page.locator("#push-count").inner_text()


def test_push_subscription_in_a_browser_without_push_service(live_site, browser):
    """Playwright's contexts are incognito-like: Chromium has no push service there, so
    ``pushManager.subscribe`` fails. The page must say so, and nothing is stored."""
    ctx = browser.new_context(permissions=["notifications"])
    page = ctx.new_page()
    sign_up(page, live_site, "ada")
    page.goto(live_site + "/notifications/settings/")
    assert page.evaluate("window.isSecureContext") and page.evaluate("Notification.permission") == "granted"
    assert _push_count(page) == "0"

    page.click("#push-on")
    message = page.locator("#push-message[data-state]")
    message.wait_for(timeout=LIVE)
    assert message.get_attribute("data-state") == "error"
    assert message.inner_text().startswith("This browser could not be subscribed to pushes.")
    # The service worker itself did register, for the whole site.
    scope = page.evaluate("navigator.serviceWorker.getRegistration('/').then(r => r && r.scope)")
    assert scope == live_site + "/"
    assert not db(PushSubscription.objects.exists)
    assert _push_count(page) == "0"
    page.click("#push-off")
    page.wait_for_selector("#push-message[data-state=ok]:has-text('This browser was not receiving pushes.')")

    # The endpoints the page uses, called from the page with a synthetic subscription (keys
    # as a browser's PushManager makes them): stored, idempotent, CSRF-checked, removed.
    _, _, keys = browser_keys()
    # A loopback endpoint (the server accepts only real push services, and loopback only in
    # tests: PUSH_ALLOW_LOOPBACK); nothing is sent to it.
    sub = {"endpoint": "http://127.0.0.1:9/send/abc123", "expirationTime": None, "keys": keys}
    api = page.locator("#push").get_attribute("data-api")
    call = """async ([method, api, body, withToken]) => {
        const token = (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
        const headers = {"Content-Type": "application/json"};
        if (withToken) headers["X-CSRFToken"] = decodeURIComponent(token);
        const r = await fetch(api, {method, headers, credentials: "same-origin", body: JSON.stringify(body)});
        return [r.status, await r.text()];
    }"""
    status, _ = page.evaluate(call, ["POST", api, sub, False])
    assert status == 403 and not db(PushSubscription.objects.exists)  # no CSRF token, no row
    status, body = page.evaluate(call, ["POST", api, sub, True])
    assert status == 201, body
    stored = db(lambda: PushSubscription.objects.select_related("user").get())
    assert stored.user.username == "ada" and stored.endpoint == sub["endpoint"]
    assert (stored.p256dh, stored.auth) == (keys["p256dh"], keys["auth"])
    assert "Chrome" in stored.user_agent
    status, body = page.evaluate(call, ["POST", api, sub, True])
    assert status == 200 and json.loads(body)["id"] == stored.pk  # the same browser again
    assert db(PushSubscription.objects.count) == 1
    page.reload()
    assert _push_count(page) == "1"
    status, _ = page.evaluate(call, ["DELETE", api, {"endpoint": sub["endpoint"]}, True])
    assert status == 204 and not db(PushSubscription.objects.exists)
    page.reload()
    assert _push_count(page) == "0"


# Stands in for the browser's push service (which Chromium lacks here): PushManager hands out a
# subscription with real keys, so the settings page's own code path runs end to end.
FAKE_PUSH_MANAGER = """
(() => {
  const fake = %s;
  let current = null;
  const b64 = bytes => btoa(String.fromCharCode(...new Uint8Array(bytes)))
      .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  PushManager.prototype.subscribe = function (options) {
    window.__subscribeOptions = {userVisibleOnly: options.userVisibleOnly,
                                 key: b64(options.applicationServerKey)};
    current = {endpoint: fake.endpoint,
               toJSON: () => ({endpoint: fake.endpoint, expirationTime: null, keys: fake.keys}),
               unsubscribe: () => { current = null; window.__unsubscribed = true; return Promise.resolve(true); }};
    return Promise.resolve(current);
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
})();
"""


def test_settings_page_subscribes_and_unsubscribes_this_browser(live_site, browser):
    ctx = browser.new_context(permissions=["notifications"])
    _, _, keys = browser_keys()
    endpoint = "http://127.0.0.1:9/send/browser-1"
    ctx.add_init_script(FAKE_PUSH_MANAGER % json.dumps({"endpoint": endpoint, "keys": keys}))
    page = ctx.new_page()
    sign_up(page, live_site, "bert", lang="de")
    page.goto(live_site + "/notifications/settings/")
    assert _push_count(page) == "0"

    page.click("#push-on")
    page.wait_for_selector("#push-message[data-state=ok]", timeout=LIVE)
    assert page.locator("#push-message").inner_text() == "Dieser Browser erhält jetzt Push-Nachrichten."
    page.wait_for_function("document.getElementById('push-count').textContent === '1'", timeout=LIVE)
    # Asked for visible pushes with the server's VAPID key, decoded right.
    options = page.evaluate("window.__subscribeOptions")
    assert options == {"userVisibleOnly": True, "key": page.locator("#push").get_attribute("data-key")}
    stored = db(lambda: PushSubscription.objects.select_related("user").get())
    assert (stored.user.username, stored.endpoint, stored.p256dh, stored.auth) == \
        ("bert", endpoint, keys["p256dh"], keys["auth"])

    page.click("#push-off")
    page.wait_for_selector("#push-message:has-text('Dieser Browser erhält keine Push-Nachrichten mehr.')",
                           timeout=LIVE)
    assert page.evaluate("window.__unsubscribed") is True
    assert page.locator("#push-message").get_attribute("data-state") == "ok"
    page.wait_for_function("document.getElementById('push-count').textContent === '0'", timeout=LIVE)
    assert not db(PushSubscription.objects.exists)
