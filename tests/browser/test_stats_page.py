"""The statistics page is worth opening (issue 54): per game the headline figures and a chart,
at 390x844 and 1280x800, in English and German, without sideways scrolling; the game's page
shows its win shares per group. STATS_SHOTS=<dir> keeps the screenshots."""
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
    _seed()
    shots = os.environ.get("STATS_SHOTS", "")
    for lang in ("en", "de"):
        for width, height in ((390, 844), (1280, 800)):
            page = browser.new_page(viewport={"width": width, "height": height}, locale=lang,
                                    extra_http_headers={"Accept-Language": lang})
            page.goto(live_site + "/stats/")
            card = page.locator("#stats-alchemist")
            assert card.locator(".stats-figures dd").first.inner_text() == "2"  # matches played
            assert card.locator("svg.chart").count() == 1  # wins by turn order
            assert page.locator("#stats-orden svg.chart").count() == 1
            assert ("Start player wins" if lang == "en" else "Startspieler gewinnt") in card.inner_text()
            box = card.locator("svg.chart").bounding_box()
            assert box["width"] >= min(300, width - 60) and box["x"] + box["width"] <= width
            assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
            if shots:
                page.screenshot(path=f"{shots}/stats-{lang}-{width}.png", full_page=True)
            page.goto(live_site + "/stats/alchemist/")
            assert page.locator("#wins-school svg.chart").count() == 1
            assert page.locator("#turn-order svg.chart").count() == 1
            assert page.locator("#school-points svg.chart").count() == 1
            assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
            if shots:
                page.screenshot(path=f"{shots}/stats-alchemist-{lang}-{width}.png", full_page=True)
            page.close()
