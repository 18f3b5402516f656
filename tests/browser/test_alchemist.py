"""Alchemist through the pages, from the invitation to the final scoring."""
import random

import pytest

from matches.models import Match
from tests.browser.pages import create_invitation, follow_into_match, join, play_until_finished, sign_up

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
        passes = page.locator("form[data-action=pass] button:enabled")  # the disabled ones say why not
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
    follow_into_match(pages[0], match_url)
    for page in pages:
        page.wait_for_function("window.__liveSocketOpen === true")
    # Two players: the first turns must be designs worth at least 5; the board offers nothing else.
    mover = next(p for p in pages if p.locator("#match-status[data-my-turn='1']").count())
    assert mover.locator("form[data-action=pass] button:enabled").count() == 0  # shown, disabled, with the first-round reason
    assert mover.locator(".alc-my-school").count() == 0

    play_until_finished(pages, alchemist_turn(random.Random(2)))
    match = Match.objects.get()
    assert match.options == {"no_schools": True} and match.status == "finished"
    for page in pages:
        page.reload()
        assert page.locator("tr[data-place]").count() == 2


def _fits_the_screen(page):
    """Nothing visible wider than the phone's screen (no sideways scrolling), text large enough.
    (Closed <details> keep laid-out boxes in Chromium; only what is shown counts.)"""
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    too_wide = page.evaluate("""(w) => [...document.querySelectorAll('.alc-board *')]
        .filter(e => e.checkVisibility() && e.getBoundingClientRect().right > w + 1)
        .map(e => [e.className || e.tagName, Math.round(e.getBoundingClientRect().right)])""", width)
    assert too_wide == []
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.alc-board')).fontSize)")
    assert size >= 13


def test_board_fits_a_phone(live_site, browser):
    """On a 390 px wide phone the board (compendium, my screen, open design form) needs no
    sideways scrolling, and a design can be made through it."""
    phone = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
             "has_touch": True}
    pages = [browser.new_context(**phone).new_page() for _ in range(2)]
    for page, name in zip(pages, ("abigail", "merlin")):
        sign_up(page, live_site, name, lang="de")
    url = create_invitation(pages[0], live_site, "alchemist", 2)
    match_url = join(pages[1], url)
    follow_into_match(pages[0], match_url)
    for page in pages:
        page.wait_for_function("window.__liveSocketOpen === true")
        _fits_the_screen(page)
    mover = next(p for p in pages if p.locator("#match-status[data-my-turn='1']").count())
    assert mover.locator("section.alc-screen").is_visible()
    design = mover.locator("details.alc-design").first
    design.locator("summary").click()
    assert design.locator(".alc-forbidden").is_visible()
    _fits_the_screen(mover)
    version = int(mover.locator("#live").get_attribute("data-version"))
    design.locator("button[type=submit]").click()
    for page in pages:
        page.wait_for_selector(f"#live[data-version='{version + 1}']", timeout=15_000)
    assert Match.objects.get().log.filter(kind="action").count() == 1
