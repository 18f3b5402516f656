"""Ranking pages and the tournament switch, with ratings computed directly by the service."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings import organizers
from ratings.services import rate_match
from tests.platform.helpers import start_minigame
from tests.ratings.play import play_to_end, plays_only

pytestmark = pytest.mark.django_db


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def _rated_pair(a, b, seed=1):
    match = play_to_end(start_minigame(a, b), plays_only, seed=seed)
    assert rate_match(match.pk)
    return match


def test_ranking_pages_keep_a_constant_query_count(client, make_user):
    users = [make_user(f"p{i}") for i in range(12)]
    _rated_pair(users[0], users[1])
    few = {url: _queries(client, url) for url in ("/rankings/", "/rankings/kartenduell/", "/api/rankings/kartenduell/")}
    for i in range(2, 12, 2):
        _rated_pair(users[i], users[i + 1], seed=i)
    _rated_pair(users[0], users[5], seed=99)
    for url, n in few.items():
        assert _queries(client, url) == n, url
    page = client.get("/rankings/kartenduell/").content.decode()
    assert page.count("<tr data-user=") == 12
    overall = client.get("/api/rankings/").json()
    assert len(overall) == 12 and [r["rank"] for r in overall] == list(range(1, 13))
    assert next(r for r in overall if r["user"]["username"] == "p0")["games"] == 2


def test_rating_a_match_twice_changes_nothing(make_user):
    from ratings.models import Rating

    a, b = make_user("a"), make_user("b")
    match = _rated_pair(a, b)
    before = list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "games"))
    assert rate_match(match.pk) is False
    assert list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "games")) == before


def test_an_unfinished_match_is_not_rated(make_user):
    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    assert rate_match(match.pk) is False


def test_without_a_tournaments_app_every_match_may_count(make_user):
    a, b = make_user("a"), make_user("b")
    assert organizers.tournament_allows_rating(start_minigame(a, b)) is True


@pytest.mark.parametrize("rated", [True, False])
def test_tournament_matches_count_unless_the_organizer_says_otherwise(make_user, rated):
    from django.utils import timezone
    from tournaments.models import Round, Table, Tournament

    from ratings.models import RatedMatch, Rating

    org, a, b = make_user("org"), make_user("a"), make_user("b")
    match = play_to_end(start_minigame(a, b), plays_only)
    tournament = Tournament.objects.create(name="Cup", game="kartenduell", organizer=org, rated=rated, seed=1)
    rnd = Round.objects.create(tournament=tournament, number=1, stage_round=1, deadline=timezone.now())
    Table.objects.create(round=rnd, table=1, users=[a.pk, b.pk], match=match)
    assert rate_match(match.pk) is rated
    record = RatedMatch.objects.get(match=match)
    assert record.rated is rated and record.reason == ("" if rated else "tournament_unrated")
    assert Rating.objects.count() == (2 if rated else 0)
