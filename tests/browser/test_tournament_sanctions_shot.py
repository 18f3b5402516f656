"""The tournament page's sanctions card with a point deduction, at 390 and 1280
px: no sideways scroll; screenshots go to var/screenshots/ for a person to look at."""
from pathlib import Path

import pytest

from tests.browser.pages import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
OUT = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def test_sanctions_card_with_a_point_deduction(live_site, browser):
    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Tournament

    base = live_site
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    org_name = "organisator_" + "x" * 36
    sign_up(page, base, org_name)
    User = get_user_model()
    org = User.objects.get(username=org_name)
    t = services.create_tournament(org, game="alchemist", name="Herbstturnier " + "Lang" * 20, rounds=2,
                                   structure="custom")
    players = [User.objects.create_user(f"spieler_{i}_" + "y" * 30, f"s{i}@example.org", "pw-Secret-123")
               for i in range(4)]
    for p in players:
        services.register(t, p)
    services.start(t, org)
    services.sanction(t, org, players[0], "point_deduction", "Wiederholte Regelverstöße " + "sehr" * 40, points=2)
    OUT.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{base}/tournaments/{Tournament.objects.get().pk}/#sanctions")
        page.wait_for_selector("#sanction-form")
        assert "−2" in page.locator("#sanctions").inner_text()
        page.locator("#sanctions").screenshot(path=str(OUT / f"tournament-sanctions-{width}.png"))
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    ctx.close()
