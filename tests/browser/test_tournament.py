"""A 6-player Swiss tournament of Alchemist with a top-4 cut, run to its winner in real
browsers: the organizer creates it, adds bots, starts it and settles the human player's
tables through the judge form; the player signs up and follows pairings, matches,
standings and the bracket. Bots play the bot-only matches (play_bots)."""
import re
import time

import pytest

from tests.browser.pages import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _settle_open_round(page, base, tid, player):
    """On the open round's page, set the result of the player's undecided table (if any).
    Returns True if the tournament has finished."""
    page.goto(f"{base}/tournaments/{tid}/")
    if page.locator("#winner").count():
        return True
    link = page.locator("#open-round a")
    if not link.count():
        return False
    link.click()
    page.wait_for_selector("#pairings")
    row = page.locator(f"#pairings tr[data-decided='0']:has-text('{player}')")
    if row.count():
        row.locator("button[type=submit]").click()
        page.wait_for_selector("#pairings")
    return False


def test_swiss_with_a_top_4_cut_to_its_winner(live_site, browser):
    started = time.monotonic()
    olga = browser.new_context().new_page()
    paul = browser.new_context().new_page()
    sign_up(olga, live_site, "olga")
    sign_up(paul, live_site, "paul", lang="de")

    # The organizer creates the tournament through the form.
    olga.goto(live_site + "/tournaments/")
    olga.click("#new-tournament")
    olga.fill("input[name=name]", "Alchemisten-Pokal")
    olga.select_option("select[name=game]", "alchemist")
    olga.select_option("select[name=format]", "swiss_cut")
    olga.select_option("select[name=structure]", "custom")
    olga.fill("input[name=rounds]", "3")
    olga.select_option("select[name=cut]", "4")
    olga.fill("input[name=round_days]", "5")
    olga.click("main form button[type=submit]")
    olga.wait_for_selector("#tournament[data-status=registration]")
    tid = int(re.search(r"/tournaments/(\d+)/", olga.url).group(1))

    # A player finds it in the list and signs up (German UI).
    paul.goto(live_site + "/tournaments/")
    paul.click(f"tr[data-tournament='{tid}'] a")
    paul.click("#register")
    paul.click("main form button[type=submit]")
    paul.wait_for_selector("#entrants li:has-text('paul')")
    assert "Spieler" in paul.content()

    # Five bots fill the field; the organizer starts.
    for _ in range(5):
        olga.click("#add-bot button[type=submit]")
        olga.wait_for_selector("#entrants")
    assert olga.locator("#entrants li").count() == 6
    olga.click("#start")
    olga.wait_for_selector("#tournament[data-status=running]")

    # The player sees his pairing and his match.
    paul.goto(live_site + "/tournaments/mine/")
    paul.wait_for_selector("#my-tournament-matches tr[data-match]")
    paul.click("#my-tournament-matches tr[data-match] td:nth-child(3) a")
    paul.wait_for_selector("#live")

    # Rounds: bots finish their matches; the organizer settles the human player's table.
    finished = False
    while time.monotonic() - started < 100:
        if _settle_open_round(olga, live_site, tid, "paul"):
            finished = True
            break
        time.sleep(0.3)
    assert finished, "the tournament did not reach its winner in time"

    winner = olga.locator("#winner").inner_text()
    paul.goto(f"{live_site}/tournaments/{tid}/standings/")
    assert paul.locator("#standings tr[data-user]").count() == 6
    assert "Spielstärke der Gegner" in paul.content() and "Erweiterte Gegnerstärke" in paul.content()
    paul.goto(f"{live_site}/tournaments/{tid}/bracket/")
    assert paul.locator("#bracket .bracket-round").count() == 2  # semi-finals and final
    assert paul.locator("#bracket .bracket-round").first.locator(".slot").count() == 2
    assert winner.strip("🏆 ").strip() in paul.locator(".champion").inner_text()
    paul.goto(live_site + "/tournaments/mine/")
    assert paul.locator("#my-tournament-matches tr[data-match]").count() >= 3  # every Swiss round
    assert time.monotonic() - started < 120
