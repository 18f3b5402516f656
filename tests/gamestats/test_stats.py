"""Statistics per game from finished matches' summaries, drawn as server-side SVG."""
import pytest

from gamestats import charts, figures
from gamestats.models import GameSummary
from games import registry
from games.alchemist.stats import summary as alchemist_summary
from gamestats.summaries import summarize_match
from tests.ratings.play import play_to_end, start

pytestmark = pytest.mark.django_db


def bars(chart: str) -> dict[str, str]:
    """{label: value as shown} of a bar chart."""
    import re

    return dict(re.findall(r'<span class="bar-label">([^<]*)</span>.*?<span class="bar-value">([^<]*)</span>', chart))


def test_alchemist_statistics_from_finished_matches(make_user, client):
    alice, bob = make_user("alice"), make_user("bob")
    matches = [play_to_end(start("alchemist", [alice, bob]), seed=s) for s in (1, 2, 3)]
    for m in matches:
        assert summarize_match(m.pk) is True
        assert summarize_match(m.pk) is False  # once per match
    assert GameSummary.objects.count() == 3
    # Expected figures straight from the final states.
    points, decided = {}, 0
    for m in matches:
        final = m.state["final"]["seats"]
        from games.alchemist.rules import COLOURS

        for row in final:
            points.setdefault(COLOURS[m.state["school"][row["seat"]]], []).append(row["school_points"])
        win = {r["seat"] for r in final if r["place"] == 1}
        rest = [r["total"] - r["school_points"] for r in final]
        decided += win != {i for i, v in enumerate(rest) if v == max(rest)}
    count, sections = figures.sections("alchemist", "en")
    assert count == 3
    by_id = {s["id"]: s for s in sections}
    assert {"school-points", "school-decided", "wins-school", "moves", "turn-order"} <= set(by_id)
    assert f"{decided} of 3 matches with schools" in by_id["school-decided"]["note"]
    page = client.get("/stats/alchemist/").content.decode()
    assert page.count('<div class="chart bars') == len(sections)
    for school, pts in points.items():
        shown = sum(pts) / len(pts)
        assert bars(by_id["school-points"]["chart"])[school] == charts._num(shown), school


def test_school_decided_means_someone_else_would_lead_without_school_points():
    view = {"schools": True, "round": 7, "seats": [{"seat": 0, "school": "blue"}, {"seat": 1, "school": "grey"}],
            "final": {"seats": [{"seat": 0, "school_points": 6, "school_rank": 1, "total": 20, "place": 1},
                                {"seat": 1, "school_points": 0, "school_rank": 2, "total": 18, "place": 2}]}}
    assert alchemist_summary(view, [])["school_decided"] is True
    view["final"]["seats"][1]["total"] = 12
    assert alchemist_summary(view, [])["school_decided"] is False


def test_orden_win_rates_per_path_and_deck_and_rounds():
    orden = registry.get("orden")
    rows = [(2, {"places": [1, 2], "start": 0, "orden": {"paths": ["schwert", "buch"],
                                                         "decks": ["starter:schwert", "custom"], "rounds": 10}}),
            (2, {"places": [2, 1], "start": 0, "orden": {"paths": ["schwert", "hammer"],
                                                         "decks": ["starter:schwert", "starter:hammer"], "rounds": 12}})]
    by_id = {s["id"]: s for s in figures.sections_of(orden, rows, "en")}
    paths = bars(by_id["wins-path"]["chart"])
    assert paths["Path of the Sword"] == "50 %" and paths["Path of the Book"] == "0 %"  # the sword: 1 win in 2
    assert bars(by_id["wins-deck"]["chart"])["own deck"] == "0 %"
    assert "Average: 11.0 rounds." == by_id["rounds"]["note"]
    # seat 0 started both: it won the first match, the second to move won the second
    assert bars(by_id["turn-order"]["chart"])["1. to move"] == "50 %"
    assert 'class="bar-marker" style="left:50.0%"' in by_id["turn-order"]["chart"]  # the equal share
    head = figures.headline(rows)
    assert head["start_share"] == 50.0 and head["fair_share"] == 50.0 and head["count"] == 2


def test_statistics_pages_in_both_languages_with_a_constant_query_count(make_user, client):
    alice, bob = make_user("alice"), make_user("bob")
    for s in (1, 2):
        assert summarize_match(play_to_end(start("alchemist", [alice, bob]), seed=s).pk)

    def count(url):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as ctx:
            page = client.get(url)
        assert page.status_code == 200
        return len(ctx.captured_queries), page.content.decode()

    few, _ = count("/stats/")
    few_game, _ = count("/stats/alchemist/")
    for s in (3, 4, 5):
        assert summarize_match(play_to_end(start("alchemist", [alice, bob]), seed=s).pk)
    many, page = count("/stats/")
    assert many == few and count("/stats/alchemist/")[0] == few_game
    assert 'id="chart-turn-order-alchemist"' in page and "Start player wins" in page
    page_de = client.get("/stats/alchemist/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Siegquote je Schule" in page_de and "Gespielte Partien" in page_de


def test_chart_labels_are_escaped_and_unknown_games_404(client):
    svg = charts.bar_chart([("<script>", 3)], title="t")
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert client.get("/stats/no-such-game/").status_code == 404
    assert client.get("/stats/").status_code == 200
    assert client.get("/stats/kartenduell/").status_code == 200
