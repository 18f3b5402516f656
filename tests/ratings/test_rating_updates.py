"""Ratings change after commit when a match ends, in a Celery task, exactly once."""
import pytest
from django.db import transaction

from matches import services
from matches.signals import match_finished
from ratings import services as rating_services
from ratings import skill
from ratings.models import RatedMatch, Rating, RatingChange
from ratings.tasks import rate_match
from tests.conftest import wait_for
from tests.platform.helpers import start_minigame
from tests.ratings.play import play_to_end, plays_only

pytestmark = pytest.mark.django_db(transaction=True)


def _rated(match_id):
    return RatedMatch.objects.filter(match_id=match_id).first()


def test_a_finished_match_updates_both_ratings(make_user, celery_worker):
    alice, bob = make_user("alice"), make_user("bob")
    match = play_to_end(start_minigame(alice, bob), plays_only)
    record = wait_for(lambda: _rated(match.pk))
    assert record.rated
    places = {s.user_id: s.place for s in match.seats.all()}
    new = skill.initial()
    users = sorted([alice, bob], key=lambda u: u.pk)
    expected = skill.rate([new, new], [places[u.pk] for u in users])
    for user, (mu, sigma) in zip(users, expected):
        r = Rating.objects.get(user=user, game="kartenduell")
        assert (r.mu, r.sigma, r.games) == (pytest.approx(mu), pytest.approx(sigma), 1)
        assert r.wins == (places[user.pk] == 1)
        assert r.shown == pytest.approx(skill.display(mu, sigma))
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_replayed_finish_counts_once(make_user, celery_worker):
    alice, bob = make_user("alice"), make_user("bob")
    match = play_to_end(start_minigame(alice, bob), plays_only)
    wait_for(lambda: RatingChange.objects.filter(match=match).count() == 2)
    before = {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    # The finish announced again (a retried signal), the task delivered twice, the service called again.
    match_finished.send(sender=None, match_id=match.pk)
    rate_match.delay(match.pk)
    assert rating_services.rate_match(match.pk) is False
    # A second, unrelated finish goes through the same queue: once it is rated, the repeats were too.
    carol, dora = make_user("carol"), make_user("dora")
    other = play_to_end(start_minigame(carol, dora), plays_only)
    wait_for(lambda: _rated(other.pk))
    after = {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.filter(user__in=[alice, bob])}
    assert after == before
    assert RatedMatch.objects.filter(match=match).count() == 1
    assert RatingChange.objects.filter(match=match).count() == 2


def test_resigned_players_are_rated_last(make_user, celery_worker):
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    match = start_minigame(a, b, c)
    services.resign(match.pk, b)  # b's seat goes on as a bot; b is placed last
    match = play_to_end(match, plays_only)
    wait_for(lambda: _rated(match.pk))
    placement = {p["seat"]: p for p in match.outcome["placements"]}
    b_seat = match.seats.get(user=b).seat
    assert placement[b_seat]["resigned"] and placement[b_seat]["place"] == 3
    ratings = {r.user_id: r for r in Rating.objects.filter(game="kartenduell")}
    assert ratings[b.pk].mu < 25 and min(ratings.values(), key=lambda r: r.mu).user_id == b.pk


def test_a_match_against_bots_only_is_not_rated(make_user, celery_worker):
    from lobby import services as lobby

    alice = make_user("alice")
    with transaction.atomic():
        invitation = lobby.create_invitation(alice, game="kartenduell", players=2, bots=["random-legal"])
    invitation.refresh_from_db()
    match = play_to_end(invitation.match, plays_only)
    record = wait_for(lambda: _rated(match.pk))
    assert (record.rated, record.reason) == (False, "fewer_than_two_people")
    assert not Rating.objects.exists()


def test_provisional_until_enough_games_and_the_ranking_api(make_user, celery_worker, client, settings):
    settings.RATING_PROVISIONAL_GAMES = 2
    alice, bob = make_user("alice"), make_user("bob")
    first = play_to_end(start_minigame(alice, bob), plays_only)
    wait_for(lambda: _rated(first.pk))
    rows = client.get("/api/rankings/kartenduell/").json()
    assert [r["rank"] for r in rows] == [1, 2]
    assert {r["user"]["username"] for r in rows} == {"alice", "bob"}
    assert all(r["games"] == 1 and r["provisional"] for r in rows)
    assert rows[0]["rating"] >= rows[1]["rating"]
    assert set(rows[0]) >= {"rank", "user", "rating", "games"} and set(rows[0]["user"]) == {"id", "username"}
    second = play_to_end(start_minigame(alice, bob), plays_only, seed=7)
    wait_for(lambda: _rated(second.pk))
    rows = client.get("/api/rankings/kartenduell/").json()
    assert all(r["games"] == 2 and not r["provisional"] for r in rows)
    page = client.get("/rankings/kartenduell/").content.decode()
    assert 'data-user="alice"' in page and 'data-user="bob"' in page


def test_unknown_game_ranking_is_a_json_404(client):
    r = client.get("/api/rankings/no-such-game/")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert client.get("/rankings/no-such-game/").status_code == 404
