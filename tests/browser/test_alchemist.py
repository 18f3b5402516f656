"""Alchemist through the pages, from the invitation to the final scoring (issue 3)."""
import random

import pytest

from matches.models import Match
from tests.browser.pages import create_invitation, join, play_until_finished, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def alchemist_turn(rng):
    """Picks one of the moves the board offers (designs, copies, passes) at random and
    submits it through its form, as a player would."""
    def take_turn(page):
        options = []
        designs = page.locator("form[data-action=design]")
        for i in range(designs.count()):
            options.append(("design", designs.nth(i).get_attribute("data-cauldron")))
        copies = page.locator("form[data-action=copy] button[data-tribute]")
        options += [("copy", i) for i in range(copies.count())]
        passes = page.locator("form[data-action=pass] button")
        options += [("pass", i) for i in range(passes.count())]
        assert options, "the board offers no move although it is my turn"
        kind, which = rng.choice(options)
        if kind == "design":
            page.click(f"details.alc-design[data-cauldron='{which}'] > summary")
            form = page.locator(f"form[data-action=design][data-cauldron='{which}']")
            radios = form.locator("input[name=recipe]")
            radios.nth(rng.randrange(radios.count())).check()
            form.locator("button[type=submit]").click()
        elif kind == "copy":
            copies.nth(which).click()
        else:
            passes.nth(which).click()
        page.wait_for_load_state()
    return take_turn


def _screen_hidden_from_others(pages):
    """Before the end, each page shows its own screen and no other player's cubes."""
    for page in pages:
        assert page.locator("section.alc-screen").count() == 1
        assert page.locator(".alc-seat .alc-row [data-colour]").count() == 0


def test_three_players_with_schools(live_site, browser):
    pages = [browser.new_context().new_page() for _ in range(3)]
    for page, name in zip(pages, ("abigail", "merlin", "morgana")):
        sign_up(page, live_site, name, lang="de" if name == "merlin" else "en")
    url = create_invitation(pages[0], live_site, "alchemist", 3)
    join(pages[1], url, starts=False)
    match_url = join(pages[2], url)
    for page in pages[:2]:  # the waiting players' invitation pages follow into the match
        page.wait_for_url(match_url, timeout=15_000)
    for page in pages:
        page.wait_for_function("window.__liveSocketOpen === true")
    _screen_hidden_from_others(pages)
    assert pages[0].locator(".alc-my-school").count() == 1

    play_until_finished(pages, alchemist_turn(random.Random(3)))
    match = Match.objects.get()
    assert match.status == "finished" and match.options == {"no_schools": False}
    for page in pages:
        page.reload()
        assert page.locator("#placements li").count() == 3
        assert page.locator("tr[data-place]").count() == 3
    assert "Endergebnis" in pages[1].content()
    final = match.state and match.outcome["placements"]
    assert sorted(p["seat"] for p in final) == [0, 1, 2]


def test_two_players_without_schools(live_site, browser):
    pages = [browser.new_context().new_page() for _ in range(2)]
    for page, name in zip(pages, ("nicolas", "perenelle")):
        sign_up(page, live_site, name)
    url = create_invitation(pages[0], live_site, "alchemist", 2, check=["opt_no_schools"])
    match_url = join(pages[1], url)
    pages[0].goto(match_url)
    for page in pages:
        page.wait_for_function("window.__liveSocketOpen === true")
    # Two players: the first turns must be designs worth at least 5; the board offers nothing else.
    mover = next(p for p in pages if p.locator("#match-status[data-my-turn='1']").count())
    assert mover.locator("form[data-action=pass]").count() == 0
    assert mover.locator(".alc-my-school").count() == 0

    play_until_finished(pages, alchemist_turn(random.Random(2)))
    match = Match.objects.get()
    assert match.options == {"no_schools": True} and match.status == "finished"
    for page in pages:
        page.reload()
        assert page.locator("tr[data-place]").count() == 2
