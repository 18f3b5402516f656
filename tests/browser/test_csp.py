"""The Content-Security-Policy in a real browser: chromium loads the main pages (and lets htmx
swap the game page's live part and open its websocket) and no violation is reported — neither
a `securitypolicyviolation` event nor a console "Refused to ..." message."""
from pathlib import Path

import pytest

from matches.services import start_match
from tests.browser.pages import sign_up

SHOTS = Path(__file__).resolve().parents[2] / "var"
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + (e.sourceFile || '') + ':' + e.lineNumber);
});
"""


def test_main_pages_report_no_csp_violation(live_site, browser, django_user_model):
    ctx = browser.new_context()
    ctx.add_init_script(LISTEN)
    page = ctx.new_page()
    console = []
    page.on("console", lambda msg: console.append(msg.text) if (
        "Content Security Policy" in msg.text or msg.text.startswith("Refused to")) else None)
    page.on("dialog", lambda dialog: dialog.dismiss())
    other = browser.new_context().new_page()
    sign_up(other, live_site, "bob")  # the server hashes the passwords (tests use a fast hasher)
    sign_up(page, live_site, "alice")
    alice, bob = (django_user_model.objects.get(username=n) for n in ("alice", "bob"))
    matches = [start_match(game=game, entrants=[{"user": alice, "bot": "", "choices": {}},
                                                {"user": bob, "bot": "", "choices": {}}], options={}, seed=11)
               for game in ("alchemist", "orden", "kartenduell")]
    header = page.goto(live_site + "/lobby/").headers.get("content-security-policy", "")
    assert "script-src 'self'" in header and "unsafe-inline" not in header.split("script-src")[1].split(";")[0]

    seen = {}
    urls = ["/", "/lobby/", "/my-games/", "/invitations/new/", "/invitations/new/orden/", "/watch/", "/rankings/",
            "/tournaments/", "/tournaments/new/", "/notifications/", "/notifications/settings/", "/users/bob/",
            "/orden/decks/", "/orden/decks/new/", "/accounts/profile/", "/stats/"]
    for m in matches:
        urls += [f"/matches/{m.pk}/", f"/matches/{m.pk}/replay/"]
    for url in urls:
        response = page.goto(live_site + url)
        page.wait_for_load_state("load")
        seen[url] = response.status
        if url.startswith("/matches/") and url.count("/") == 3:
            page.wait_for_function("window.__liveSocketOpen === true", timeout=10000)
            # htmx swaps the live part in (as after a move): its content is checked too.
            # htmx reloads the live part as after a move (hx-get with hx-vals): swapped content
            # and the request's own set-up are checked too.
            page.evaluate("htmx.trigger('#live', 'refresh')")
            page.wait_for_timeout(400)
        if url == f"/matches/{matches[0].pk}/":  # the boards' stylesheets (files now) apply
            assert page.evaluate("getComputedStyle(document.querySelector('.alc-board')).maxWidth") == "1100px"
            page.screenshot(path=str(SHOTS / "csp-alchemist.png"))
        if url == f"/matches/{matches[1].pk}/":
            assert page.evaluate("getComputedStyle(document.querySelector('.ord-board')).fontSize") == "15px"
        if url.endswith("/replay/"):
            with page.expect_navigation():  # the select submits its form (static JS, no inline handler)
                page.select_option("#replay-seat select", "public")
            page.wait_for_load_state("load")
        violations = page.evaluate("window.__csp || []")
        assert not violations, f"{url}: {violations}"
    assert not console, console
    assert all(status == 200 for status in seen.values()), seen

    # Leaving a match takes two clicks without any script: the button sits in a closed <details>.
    page.goto(live_site + f"/matches/{matches[2].pk}/")
    resign = page.locator("form[action$='/resign/'] button[type=submit]")
    assert not resign.is_visible()
    page.click(".resign-box summary")
    assert resign.is_visible()
    page.wait_for_timeout(300)
    matches[2].refresh_from_db()
    assert matches[2].status == "active" and not matches[2].seats.filter(resigned=True).exists()

    # Swagger UI from the package: it renders, without violations.
    page.goto(live_site + "/api/docs/swagger/")
    page.wait_for_selector(".swagger-ui .info", timeout=15000)
    assert not page.evaluate("window.__csp || []") and not console, console
    ctx.close()
