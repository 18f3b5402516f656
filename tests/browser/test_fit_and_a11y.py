"""Every page fits a phone and passes axe, in real chromium.

The site is filled with the worst text people can type: a 400-character chat message without
a space, and names and comments of 200 unbroken characters (or the field's maximum where it
is shorter: user names 150, display names 40, deck names 60, tournament names 120). Then every
page of the site is opened at 390x844 and at 1280x800 and must not scroll sideways
(``document.scrollingElement.scrollWidth <= innerWidth``); axe-core (bundled by
axe-playwright-python: no download) must find no serious or critical violation."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.pages import PASSWORD, db

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
SHOTS = os.environ.get("FIT_SHOTS")  # a folder: also save a screenshot of every page there


def unbroken(n: int, stem: str = "W") -> str:
    return (stem * n)[:n]


def seed() -> dict:
    """Two long-named players with a match of each game, a finished match, an open invitation,
    a saved deck, a tournament with a paired round and notifications, all with long texts."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    from games.orden import decks
    from games.orden.web.models import SavedDeck
    from lobby import services as lobby
    from matches import chat
    from matches import services as matches
    from notifications.services import notify
    from tournaments import services as tournaments

    User = get_user_model()
    users = []
    for stem in ("O", "R", "T"):
        u = User.objects.create_user(unbroken(150, stem), f"{stem}@example.org")
        # The server process has the default hashers, not the tests' fast MD5.
        u.password = PBKDF2PasswordHasher().encode(PASSWORD, PBKDF2PasswordHasher().salt(), iterations=1000)
        u.save()
        u.profile.display_name = unbroken(40, stem.lower())
        u.profile.save()
        users.append(u)
    owner, rival, third = users
    comment = unbroken(200, "C")
    ids = {}
    for game in ("alchemist", "orden"):
        inv = lobby.create_invitation(owner, game=game, players=2, comment=comment)
        lobby.join(inv.pk, rival)
        inv.refresh_from_db()
        ids[game] = inv.match_id
        ids[f"{game}_inv"] = inv.pk
        chat.post(ids[game], owner, unbroken(400, "W"))
    done = lobby.create_invitation(rival, game="alchemist", players=2, comment=comment)
    lobby.join(done.pk, owner)
    done.refresh_from_db()
    finished = done.match_id
    matches.resign(finished, rival)
    ids["finished"] = finished
    ids["open_inv"] = lobby.create_invitation(rival, game="alchemist", players=3, comment=comment).pk
    # A seat left in a 3-player match: offered to substitutes (lobby section, offer page).
    left = lobby.create_invitation(owner, game="alchemist", players=3)
    lobby.join(left.pk, rival)
    left = lobby.join(left.pk, third)
    matches.resign(left.match_id, third)
    from lobby.models import SubstituteOffer

    ids["offer"] = SubstituteOffer.objects.get(match_id=left.match_id).pk
    ids["deck"] = SavedDeck.objects.create(owner=owner, name=unbroken(60, "D"), **decks.starter("schwert")).pk
    t = tournaments.create_tournament(owner, game="alchemist", name=unbroken(120, "T"))
    for u in (rival, third):
        tournaments.register(t, u)
    for _ in range(2):
        tournaments.add_bot(t, owner)
    tournaments.start(t, owner)
    ids["tournament"] = t.pk
    notify(owner, "tournament_paired", {"tournament": t.name, "round": 1, "match": ids["alchemist"],
                                        "game": "alchemist"}, key="fit-paired", match_id=ids["alchemist"])
    notify(owner, "invitation_joined", {"player": rival.username, "seats": "2/2", "game": "orden",
                                        "match": ids["orden"]}, key="fit-joined")
    # A guided first match against the bot: the table with the hints.
    from guide.models import GuidedMatch

    guided = matches.start_match(game="orden", entrants=[{"user": owner, "bot": "", "choices": {}},
                                                         {"user": None, "bot": "heuristic", "choices": {}}],
                                 options={}, public=False)
    GuidedMatch.objects.create(match=guided, learner=owner)
    ids["guided"] = guided.pk
    return {"owner": owner.username, "rival": rival.username, **ids}


def pages_of(d: dict) -> list[str]:
    """Every page a signed-in player can open (the error pages are added by the test)."""

    t, a, o = d["tournament"], d["alchemist"], d["orden"]
    paths = [
        "/lobby/", "/lobby/?game=alchemist", "/invitations/new/", "/invitations/new/alchemist/",
        "/invitations/new/orden/", f"/invitations/{d['open_inv']}/", f"/invitations/{d['alchemist_inv']}/",
        "/my-games/", f"/matches/{a}/", f"/matches/{o}/", f"/matches/{d['finished']}/",
        f"/matches/{d['finished']}/replay/", f"/matches/{a}/replay/",
        "/notifications/", "/notifications/settings/", "/accounts/profile/", "/accounts/password/change/",
        f"/users/{d['owner']}/", f"/users/{d['rival']}/", f"/users/{d['owner']}/invite/", "/watch/",
        f"/players/{d['owner']}/record/",
        "/orden/decks/", "/orden/decks/new/", f"/orden/decks/{d['deck']}/",
        "/tournaments/", "/tournaments/new/", "/tournaments/mine/", f"/tournaments/{t}/",
        f"/tournaments/{t}/standings/", f"/tournaments/{t}/bracket/", f"/tournaments/{t}/rounds/1/",
        f"/tournaments/{t}/register/", "/accounts/password/change/done/",
        "/rankings/", "/rankings/alchemist/", "/rankings/orden/", "/stats/", "/stats/alchemist/", "/stats/orden/",
        f"/substitutes/{d['offer']}/",
        "/account/data/", "/privacy/", "/imprint/", "/terms/",  # their data, the legal pages
        f"/reports/new/?match={a}", f"/reports/new/?user={d['rival']}",
        "/no-such-page/",  # 404 inside the site's frame
        "/help/", "/learn/", f"/matches/{d['guided']}/",  # a first visit
        "/api/docs/",  # the API's documentation, a page of the site (api/docs_page.py)
    ]
    # Pages added later whose only parameter is the game (the rules pages)
    # are opened for both games; any other page missing here fails test_every_page_is_listed.
    for route in page_routes():
        if route.params and {name for _, name in route.params} == {"game"}:
            if not any(resolve_route(p) == route.pattern for p in paths):
                paths += [route.url(game="alchemist"), route.url(game="orden")]
    return paths


ANON_PAGES = ["/", "/help/", "/learn/", "/api/docs/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/", "/privacy/",
              "/accounts/password/reset/done/", "/accounts/password/reset/complete/", "/lobby/", "/no-such-page/"]
# Routes that are no page of their own: form targets (POST), htmx fragments, files, redirects,
# one-time links from mails.
NOT_PAGES = {
    "favicon.ico", "sw.js", "accounts/logout/", "accounts/language/", "accounts/password/reset/<uidb64>/<token>/",
    "accounts/email/confirm/<str:token>/", "accounts/email/resend/",  # (the mailed link; a POST target)
    "next-game/", "health/", "metrics",  # (operations: JSON and Prometheus text, platform/ops/)
    "invitations/<int:pk>/status/", "invitations/<int:pk>/seats/", "invitations/<int:pk>/<str:verb>/",
    "matches/<int:pk>/live/",
    "matches/<int:pk>/act/", "matches/<int:pk>/undo/", "matches/<int:pk>/resign/", "matches/<int:pk>/chat/",
    "matches/<int:pk>/rematch/", "matches/<int:pk>/chat/read/", "matches/<int:pk>/chat/lines/", "matches/<int:pk>/notes/",
    "matches/<int:pk>/notify/",  # (form targets of the table's drawers: matches/notes.py, seatprefs.py)
    "matches/<int:pk>/orders/queue/", "matches/<int:pk>/orders/cancel/", "matches/<int:pk>/orders/set/",
    "matches/<int:pk>/export.json", "notifications/<int:pk>/open/", "notifications/unsubscribe/<str:token>/",
    "users/<str:username>/<str:verb>/", "friends/<str:verb>/", "tournaments/<int:pk>/rounds/<int:n>/result/",
    "tournaments/<int:pk>/do/<str:verb>/", "orden/decks/copy/", "orden/decks/<int:pk>/delete/",
    "learn/<slug:game>/",  # (starts a guided match: POST)
    "learn/<slug:game>/try/", "learn/not-now/", "learn/matches/<int:pk>/suggested/",  # (POST: a guest, the hint)
    # The authors' hot-seat table: off on a site (404 without GAME_AUTHOR_TOOLS); tests/browser/test_hotseat.py
    "author/hotseat/", "author/hotseat/<int:pk>/seat/<int:seat>/", "author/hotseat/<int:pk>/seat/<int:seat>/act/",
}


def page_routes():
    from tests.security.routes import all_routes

    return [r for r in all_routes() if not (r.is_api or r.is_admin or r.pattern.startswith("i18n/")
                                            or r.pattern in NOT_PAGES)]


def resolve_route(path: str) -> str | None:
    from django.urls import Resolver404, resolve

    try:
        return resolve(path.split("?")[0]).route
    except Resolver404:
        return None


def check_page(page, path: str, problems: list, size: str) -> None:
    """Records a sideways scroll or a serious/critical axe violation of the open page."""
    from axe_playwright_python.sync_playwright import Axe

    width = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    if width[0] > width[1]:
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(-3).map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className)""")
        problems.append(f"{size} {path}: {width[0]} px wide for {width[1]} ({wide})")
    results = Axe().run(page)
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = [n["target"] for n in v["nodes"]][:3]
            problems.append(f"{size} {path}: axe {v['impact']} {v['id']}: {v['help']} {targets}")
    if SHOTS:
        name = path.strip("/").replace("/", "_").replace("?", "_") or "root"
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{size}-{name}.png", full_page=True)


def log_in(page, base, username):
    page.goto(base + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    assert "/login/" not in page.url, page.inner_text("main")


@pytest.mark.timeout(1800)  # every page of the site, twice (two widths) and in both languages
def test_no_page_scrolls_sideways_and_axe_finds_nothing_serious(live_site, browser):
    d = db(seed)
    paths = db(lambda: pages_of(d))
    problems: list[str] = []
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        anon = browser.new_context(viewport=viewport)
        page = anon.new_page()
        for path in ANON_PAGES:
            page.goto(live_site + path)
            check_page(page, path, problems, size)
        anon.close()
        ctx = browser.new_context(viewport=viewport)
        page = ctx.new_page()
        log_in(page, live_site, d["owner"])
        for lang in ("en", "de"):
            # The header's language switch (it stores the player's language in the profile).
            page.goto(live_site + "/lobby/")
            if page.locator("html").get_attribute("lang") != lang:
                if page.locator("#menu-toggle").is_visible():  # a phone: the links are in the menu
                    page.click("#menu-toggle")
                with page.expect_navigation():
                    page.click("header form.lang button")
            assert page.locator("html").get_attribute("lang") == lang
            # German words are longer: every page in German on the phone, a few on the desktop.
            few = ["/lobby/", f"/matches/{d['orden']}/", "/no-such-page/"]
            for path in paths if lang == "en" or size == "phone" else few:
                response = page.goto(live_site + path)
                assert response.status < 500, f"{path}: {response.status}"
                check_page(page, path if lang == "en" else f"{path} (de)", problems, size)
        # A form posted without its CSRF token: the 403 page.
        page.goto(live_site + "/lobby/")
        with page.expect_navigation():
            page.evaluate("""() => { const f = document.createElement('form'); f.method = 'post';
                f.action = '/accounts/logout/'; document.body.append(f); f.submit(); }""")
        assert "403" in page.title()
        check_page(page, "403", problems, size)
        ctx.close()
    assert not problems, "\n".join(problems)


def test_every_page_is_listed():
    """A page added to the site must be added to pages_of (or to NOT_PAGES if it is none)."""
    fake = {"owner": "o", "rival": "r", "tournament": 1, "alchemist": 1, "orden": 2, "finished": 3,
            "open_inv": 4, "alchemist_inv": 5, "deck": 6, "offer": 7, "guided": 8}
    covered = {resolve_route(p) for p in pages_of(fake) + ANON_PAGES}
    missing = [r.pattern for r in page_routes() if r.pattern not in covered]
    assert not missing, missing


def test_the_lobby_join_control_is_on_a_phone_screen(live_site, browser):
    d = db(seed)
    page = browser.new_context(viewport=PHONE).new_page()
    log_in(page, live_site, d["owner"])
    page.goto(live_site + "/lobby/")
    join = page.locator(f"[data-invitation='{d['open_inv']}'] a.button")
    box = join.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    join.click()
    page.wait_for_url(f"**/invitations/{d['open_inv']}/")
