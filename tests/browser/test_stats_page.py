"""The statistics page is worth opening: per game the headline figures and a chart,
at 390x844 and 1280x800, in English and German (and the dark theme on a phone), without sideways
scrolling and with nothing serious for axe; the game's page shows its win shares per group. STATS_SHOTS=<dir> keeps the screenshots."""
from __future__ import annotations

import os

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _seed():
    """Summaries as the statistics task writes them: three Alchemist matches with schools, two of
    Der Orden (the generic part and each game's own, through its hooks)."""
    from django.utils import timezone

    from gamestats.models import GameSummary
    from matches.models import Match

    rows = [("alchemist", 3, {"places": [1, 2, 3], "start": 0, "moves": 61, "days": 4.5,
                              "alchemist": {"schools": True, "school_decided": True, "rounds": 7,
                                            "seats": [{"school": "blue", "school_points": 6, "total": 30, "place": 1},
                                                      {"school": "grey", "school_points": 2, "total": 25, "place": 2},
                                                      {"school": "orange", "school_points": 0, "total": 20, "place": 3}]}}),
            ("alchemist", 2, {"places": [2, 1], "start": 0, "moves": 44, "days": 2.0,
                              "alchemist": {"schools": True, "school_decided": False, "rounds": 6,
                                            "seats": [{"school": "blue", "school_points": 3, "total": 22, "place": 2},
                                                      {"school": "yellow", "school_points": 4, "total": 28, "place": 1}]}}),
            ("orden", 2, {"places": [1, 2], "start": 1, "moves": 300, "days": 9.0,
                          "orden": {"paths": ["schwert", "buch"], "decks": ["starter:schwert", "custom"], "rounds": 11}})]
    for i, (game, players, data) in enumerate(rows):
        match = Match.objects.create(game=game, players=players, options={}, seed=i, engine_version="1",
                                     state={}, status=Match.Status.FINISHED, finished_at=timezone.now())
        GameSummary.objects.create(match=match, game=game, players=players, data=data, finished_at=match.finished_at)


def test_statistics_overview_and_game_page_at_both_widths_in_both_languages(live_site, browser):
    from tests.browser.test_fit_and_a11y import check_page

    _seed()
    problems = []
    shots = os.environ.get("STATS_SHOTS", "")
    for lang, width, height, theme in (("en", 390, 844, "light"), ("en", 1280, 800, "light"),
                                       ("de", 390, 844, "light"), ("de", 1280, 800, "light"),
                                       ("en", 390, 844, "dark")):
        page = browser.new_page(viewport={"width": width, "height": height}, locale=lang, color_scheme=theme,
                                extra_http_headers={"Accept-Language": lang})
        page.goto(live_site + "/stats/")
        card = page.locator("#stats-alchemist")
        assert card.locator(".stats-figures dd").first.inner_text() == "2"  # matches played
        assert card.locator(".chart").count() == 1  # wins by turn order
        assert page.locator("#stats-orden .chart").count() == 1
        assert ("Start player wins" if lang == "en" else "Startspieler gewinnt") in card.inner_text()
        box = card.locator(".chart").bounding_box()
        assert box["width"] >= min(300, width - 80) and box["x"] + box["width"] <= width
        # the bars read at the page's size: the labels' text is no smaller than 14 px
        size = card.locator(".chart .bar-label").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 14, size
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
        check_page(page, "/stats/", problems, f"{lang}-{width}-{theme}")  # axe: nothing serious, no sideways scroll
        if shots:
            page.screenshot(path=f"{shots}/stats-{lang}-{width}-{theme}.png", full_page=True)
        page.goto(live_site + "/stats/alchemist/")
        assert page.locator("#wins-school .chart").count() == 1
        assert page.locator("#turn-order .chart").count() == 1
        assert page.locator("#school-points .chart").count() == 1
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
        check_page(page, "/stats/alchemist/", problems, f"{lang}-{width}-{theme}")
        if shots:
            page.screenshot(path=f"{shots}/stats-alchemist-{lang}-{width}-{theme}.png", full_page=True)
        page.close()
    assert not problems, "\n".join(problems)
