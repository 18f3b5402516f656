"""Around the games, in a real browser: a vacation taken through the German form
(the date field is pre-filled with an ISO value the browser accepts); the host's invitation
page fills its seats live as others join (two browser contexts); the invitation form shows only
the chosen time control's fields; the header's DE/EN switch sticks for a signed-in user."""

import pytest

from tests.browser.pages import create_invitation, db, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LIVE = 15_000


def test_vacation_through_the_german_form(live_site, browser):
    from clocks.models import Vacation

    page = browser.new_context(locale="de-DE").new_page()
    sign_up(page, live_site, "urlauberin", lang="de")
    page.goto(live_site + "/notifications/settings/")
    start = page.locator("#vacation-form input[name=start]")
    assert start.input_value()  # the browser took the pre-filled value (a German one it drops)
    page.fill("#vacation-form input[name=days]", "3")
    page.click("#vacation-form button[type=submit]")
    page.wait_for_selector(".messages li.success")
    assert "Urlaub" in page.locator(".messages").inner_text()
    assert db(lambda: Vacation.objects.filter(user__username="urlauberin").count()) == 1


def test_invitation_seats_fill_in_live_for_the_host(live_site, browser):
    host_ctx, guest_ctx, third_ctx = browser.new_context(), browser.new_context(), browser.new_context()
    host, guest, third = host_ctx.new_page(), guest_ctx.new_page(), third_ctx.new_page()
    sign_up(host, live_site, "gastgeberin")
    sign_up(guest, live_site, "gast")
    sign_up(third, live_site, "dritte")
    url = create_invitation(host, live_site, "kartenduell", 3)
    assert host.locator("#seats-taken").inner_text() == "1"
    host.wait_for_function("window.__liveSocketOpen === true")
    host.evaluate("window.__sameDocument = 'yes'")

    guest.goto(url)
    guest.click("#join-form button[type=submit]")
    guest.wait_for_selector("form[action$='/leave/']")
    # The host's page shows the new seat without a reload (websocket frame, else the 4 s poll).
    host.wait_for_selector("#seats[data-taken='2']", timeout=LIVE)
    assert "gast" in host.locator("#seats").inner_text()
    assert host.evaluate("window.__sameDocument") == "yes", "the page was reloaded"
    # The guest leaves: the seat empties live too.
    guest.click("form[action$='/leave/'] button")
    host.wait_for_selector("#seats[data-taken='1']", timeout=LIVE)
    # Two join; the last seat starts the match and the host's page follows into it.
    guest.goto(url)
    guest.click("#join-form button[type=submit]")
    host.wait_for_selector("#seats[data-taken='2']", timeout=LIVE)
    third.goto(url)
    third.click("#join-form button[type=submit]")
    third.wait_for_selector("#live")
    host.wait_for_selector("#live", timeout=LIVE)
    assert "/matches/" in host.url


def test_invitation_form_shows_only_the_chosen_time_control(live_site, browser):
    page = browser.new_page()
    sign_up(page, live_site, "uhrmacher")
    page.goto(live_site + "/invitations/new/kartenduell/")
    days, bank = page.locator("input[name=move_days]"), page.locator("input[name=clock_bank_hours]")
    increment = page.locator("input[name=clock_increment_hours]")
    assert days.is_visible() and not bank.is_visible() and not increment.is_visible()
    page.select_option("select[name=clock_mode]", "bank")
    assert not days.is_visible() and bank.is_visible() and increment.is_visible()
    page.fill("input[name=clock_bank_hours]", "12")
    # A limit is shown before it cuts: the comment counts its characters.
    page.fill("input[name=comment]", "Hallo")
    assert page.locator("#id_comment-count").inner_text() == "5 / 200"
    page.click("main form button[type=submit]")
    page.wait_for_selector("[data-invitation]")
    from clocks.models import TimeControl

    tc = db(lambda: TimeControl.objects.get(invitation__host__username="uhrmacher"))
    assert (tc.mode, tc.bank_hours) == ("bank", 12)


def test_language_switch_sticks_for_a_signed_in_user(live_site, browser):
    ctx = browser.new_context()
    page = ctx.new_page()
    sign_up(page, live_site, "sprachwechsel")
    page.goto(live_site + "/my-games/")
    assert "My games" in page.title()
    page.click("form.lang button[value=de]")
    page.wait_for_function("document.title.indexOf('Meine Spiele') >= 0")
    page.goto(live_site + "/lobby/")
    assert page.locator("html").get_attribute("lang") == "de"
    # Another browser, the same account: German too (the profile keeps it).
    other = browser.new_context().new_page()
    other.goto(live_site + "/accounts/login/")
    other.fill("input[name=username]", "sprachwechsel")
    from tests.browser.pages import PASSWORD

    other.fill("input[name=password]", PASSWORD)
    other.click("main form button[type=submit]")
    other.wait_for_url(live_site + "/my-games/")
    assert "Meine Spiele" in other.title()
