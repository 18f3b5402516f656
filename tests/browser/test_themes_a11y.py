"""Every kind of page passes axe in the light and in the dark theme ("Accessibility"
and "Dark mode"), guest pages included, in real chromium. The dark theme is the system's
setting (``prefers-color-scheme: dark``), emulated by Playwright's ``color_scheme``.

The pages are brought into the states where axe found problems before: a flash message on the
page (lobby after sign-up, invitation after joining, tournament after adding a bot: the message
list), the tournament's "Add a bot" form (its select's label), Alchemist's taken value tiles
(their contrast, on the table and in the replay), a last-move box and a log long enough to scroll
(reachable by keyboard). At 1280x800 every page; at 390x844 the table pages, the guest ones and
a few in German.
``THEME_SHOTS=<dir>`` also saves a screenshot of every page there."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.pages import PASSWORD, db, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
SHOTS = os.environ.get("THEME_SHOTS")


def seed() -> dict:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    from games import registry
    from lobby import services as lobby
    from matches import services as matches
    from matches.models import Match
    from tournaments import services as tournaments

    User = get_user_model()
    users = []
    for name in ("owner", "rival"):
        u = User.objects.create_user(name, f"{name}@example.org")
        u.password = PBKDF2PasswordHasher().encode(PASSWORD, PBKDF2PasswordHasher().salt(), iterations=1000)
        u.save()
        users.append(u)
    owner, rival = users
    ids = {}
    for game in ("alchemist", "orden"):
        inv = lobby.create_invitation(owner, game=game, players=2)
        lobby.join(inv.pk, rival)
        inv.refresh_from_db()
        ids[game] = inv.match_id
    # Moves until Alchemist has taken value tiles and the logs are long enough to scroll.
    for _ in range(24):
        for game in ("alchemist", "orden"):
            m = Match.objects.get(pk=ids[game])
            if m.status != "active":
                continue
            engine = registry.get(game).engine
            seat = engine.to_move(m.state)[0]
            legal = engine.legal_actions(m.state, seat)
            action = next((a for a in legal if a.get("type") == "design"), legal[0])
            matches.submit_action(m.pk, m.seats.get(seat=seat).user, action, m.version)
    done = lobby.create_invitation(rival, game="alchemist", players=2)
    lobby.join(done.pk, owner)
    done.refresh_from_db()
    matches.resign(done.match_id, rival)
    ids["finished"] = done.match_id
    ids["open_inv"] = lobby.create_invitation(rival, game="orden", players=3).pk
    ids["tournament"] = tournaments.create_tournament(owner, game="alchemist", name="Spring cup").pk
    return ids


def check(page, label: str, problems: list) -> None:
    from axe_playwright_python.sync_playwright import Axe

    width = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    if width[0] > width[1]:
        problems.append(f"{label}: {width[0]} px wide for {width[1]}")
    for v in Axe().run(page).response["violations"]:
        if v["impact"] in ("serious", "critical"):
            nodes = [(n["target"], (n.get("any") or [{}])[0].get("message", "")) for n in v["nodes"]][:3]
            problems.append(f"{label}: axe {v['impact']} {v['id']}: {v['help']} {nodes}")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        name = label.replace("/", "_").replace("?", "_").replace(" ", "-")
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def log_in(page, base, username):
    page.goto(base + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    assert "/login/" not in page.url


THEMES = os.environ.get("THEMES", "light,dark").split(",")  # (one of them while working on it)
GUEST = ["/", "/help/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/",
         "/games/alchemist/rules/", "/games/orden/rules/", "/tournaments/", "/stats/"]


@pytest.mark.timeout(1500)
def test_every_kind_of_page_passes_axe_in_light_and_dark(live_site, browser):
    ids = db(seed)
    a, o, t = ids["alchemist"], ids["orden"], ids["tournament"]
    table = [f"/matches/{a}/", f"/matches/{o}/", f"/matches/{ids['finished']}/replay/"]
    signed_in = ["/lobby/", f"/invitations/{ids['open_inv']}/", "/my-games/", *table,
                 f"/matches/{ids['finished']}/", "/games/alchemist/rules/", "/games/orden/rules/",
                 "/tournaments/", f"/tournaments/{t}/", "/stats/", "/notifications/", "/notifications/settings/",
                 "/accounts/profile/", "/users/owner/", "/accounts/password/change/", "/invitations/new/orden/"]
    problems: list[str] = []
    for theme in THEMES:
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            ctx = browser.new_context(viewport=viewport, color_scheme=theme)
            page = ctx.new_page()
            assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (theme == "dark")
            for path in GUEST if size == "desktop" else GUEST[:3]:
                page.goto(live_site + path)
                check(page, f"{theme} {size} guest {path}", problems)
            # A new account lands in the lobby with a message (the list of messages).
            sign_up(page, live_site, f"new-{theme}-{size}")
            assert page.locator("ul.messages li").count()
            check(page, f"{theme} {size} lobby after sign-up", problems)
            page.context.clear_cookies()
            log_in(page, live_site, "owner")
            for path in signed_in if size == "desktop" else table:
                page.goto(live_site + path)
                check(page, f"{theme} {size} {path}", problems)
            if size == "desktop":
                # The tournament's "Add a bot" form, then its message.
                page.goto(live_site + f"/tournaments/{t}/")
                assert page.locator("#add-bot select").count() == 1
                check(page, f"{theme} tournament with the bot form", problems)
                page.click("#add-bot button[type=submit]")
                page.wait_for_selector("ul.messages li")
                check(page, f"{theme} tournament after adding a bot", problems)
                # Alchemist's taken value tiles are shown (their contrast is checked above).
                page.goto(live_site + f"/matches/{a}/")
                assert page.locator(".alc-tiles .is-used").count() > 0
                # The scrolling parts of the table are reachable by keyboard and named.
                for sel in ("#log ol", "#last-move, #recap ul"):
                    el = page.locator(sel).first
                    assert el.get_attribute("tabindex") == "0", sel
                    el.focus()
                    assert page.evaluate("document.activeElement.getAttribute('tabindex')") == "0"
            ctx.close()
        # In German (a new account that chose it), on a phone: longer words, the same rules.
        ctx = browser.new_context(viewport=PHONE, color_scheme=theme)
        page = ctx.new_page()
        sign_up(page, live_site, f"leser-{theme}", lang="de")
        assert page.locator("html").get_attribute("lang") == "de"
        for path in ("/lobby/", "/games/alchemist/rules/", "/games/orden/rules/", f"/tournaments/{t}/", "/my-games/"):
            page.goto(live_site + path)
            check(page, f"{theme} phone de {path}", problems)
        ctx.close()
        # Joining an invitation on its page: the invitation page shows the message.
        ctx = browser.new_context(viewport=DESKTOP, color_scheme=theme)
        page = ctx.new_page()
        sign_up(page, live_site, f"joiner-{theme}")
        page.goto(live_site + f"/invitations/{ids['open_inv']}/")
        page.click("#join-form button[type=submit]")
        page.wait_for_selector("ul.messages li")
        check(page, f"{theme} invitation after joining", problems)
        page.click("form[action$='/leave/'] button[type=submit]")
        page.wait_for_load_state()
        ctx.close()
    assert not problems, "\n".join(problems)
