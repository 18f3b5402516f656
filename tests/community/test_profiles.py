"""Public profiles, the profile API and the watch list, with constant query counts."""
import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from community import profiles
from matches.models import LogEntry
from ratings.services import rate_match
from tests.platform.helpers import start_minigame
from tests.ratings.play import play_to_end, plays_only

pytestmark = pytest.mark.django_db


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def _finished(a, b, seed=1):
    match = play_to_end(start_minigame(a, b), plays_only, seed=seed)
    rate_match(match.pk)
    return match


def test_profile_shows_results_ratings_and_history(make_user, client):
    alice, bob = make_user("alice"), make_user("bob")
    matches = [_finished(alice, bob, seed=s) for s in (1, 2, 3)]
    start_minigame(alice, bob)  # one still running
    wins = sum(m.seats.get(user=alice).place == 1 for m in matches)
    page = client.get("/users/alice/").content.decode()
    assert f"Games played: 3 · won: {wins}" in page
    assert 'id="rating-chart-kartenduell"' in page and "<svg" in page
    assert page.count('class="replay-link"') == 3
    assert page.count("<li data-match=") == 4
    data = client.get("/api/users/alice/").json()
    assert data["username"] == "alice" and data["played"] == 3 and data["won"] == wins
    (rating,) = data["ratings"]
    assert rating["game"] == "kartenduell" and rating["games"] == 3 and rating["provisional"] is True
    assert data["games"] == [{"game": "kartenduell", "game_name": "Card duel", "played": 3, "won": wins}]
    assert client.get("/api/users/nobody/").json()["error"] == "not_found"
    assert client.get("/users/nobody/").status_code == 404


def test_profile_query_count_is_constant(make_user):
    alice, bob, viewer = make_user("alice"), make_user("bob"), make_user("viewer")
    c = Client()
    c.force_login(viewer)
    _finished(alice, bob)
    start_minigame(alice, bob)
    few = (_queries(c, "/users/alice/"), _queries(c, "/api/users/alice/"))
    for s in range(2, 8):
        _finished(alice, bob, seed=s)
        start_minigame(alice, bob)
    assert (_queries(c, "/users/alice/"), _queries(c, "/api/users/alice/")) == few


def test_usual_time_per_move_is_the_median_gap_before_own_moves(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = play_to_end(start_minigame(alice, bob), plays_only)
    alice_seat = match.seats.get(user=alice).seat
    t0 = timezone.now() - datetime.timedelta(days=10)
    gaps = []
    entries = list(LogEntry.objects.filter(match=match).order_by("seq"))
    at = t0
    type(match).objects.filter(pk=match.pk).update(created_at=t0)
    for i, entry in enumerate(entries):
        gap = datetime.timedelta(minutes=10 * (i + 1))
        at = at + gap
        LogEntry.objects.filter(pk=entry.pk).update(at=at)
        if entry.seat == alice_seat:
            gaps.append(gap.total_seconds())
    gaps.sort()
    mid = len(gaps) // 2
    expected = gaps[mid] if len(gaps) % 2 else (gaps[mid - 1] + gaps[mid]) / 2
    assert profiles.usual_move_seconds(alice) == expected


def test_private_matches_stay_off_strangers_views_of_a_profile(make_user):
    from lobby import services as lobby

    alice, bob, eve = make_user("alice"), make_user("bob"), make_user("eve")
    inv = lobby.create_invitation(alice, game="kartenduell", players=2, private=True, invitees=["bob"])
    inv = lobby.join(inv.pk, bob)
    c = Client()
    c.force_login(eve)
    assert f'data-match="{inv.match_id}"' not in c.get("/users/alice/").content.decode()
    c.force_login(bob)
    assert f'data-match="{inv.match_id}"' in c.get("/users/alice/").content.decode()


def test_watch_lists_live_public_matches_only(make_user, client):
    from lobby import services as lobby

    alice, bob = make_user("alice"), make_user("bob")
    live = start_minigame(alice, bob)
    done = _finished(alice, bob)
    inv = lobby.create_invitation(alice, game="kartenduell", players=2, private=True, invitees=["bob"])
    private = lobby.join(inv.pk, bob).match
    page = client.get("/watch/").content.decode()
    assert f'<tr data-match="{live.pk}"' in page
    assert f'<tr data-match="{done.pk}"' not in page and f'data-match="{private.pk}"' not in page
    few = _queries(client, "/watch/")
    for _ in range(6):
        start_minigame(alice, bob)
        _finished(alice, bob)
    assert _queries(client, "/watch/") == few


def test_profile_shows_timeouts_and_tournaments(make_user, client):
    """Timeouts come from the clocks app's record, tournaments from the user's entries
    (an organizer's own tournament without an entry is not listed)."""
    from clocks.models import PlayerRecord
    from tournaments.models import Entrant, Tournament

    alice, org = make_user("alice"), make_user("org")
    PlayerRecord.objects.create(user=alice, moves=40, timeouts=2)
    cup = Tournament.objects.create(name="Alchemist Cup", game="alchemist", organizer=org, seed=1)
    Tournament.objects.create(name="Org's League", game="alchemist", organizer=alice, seed=2)
    Entrant.objects.create(tournament=cup, user=alice)
    page = client.get("/users/alice/").content.decode()
    assert "timeouts: 2" in page
    assert "Alchemist Cup" in page and "Org&#x27;s League" not in page and "Org's League" not in page
    assert client.get("/api/users/alice/").json()["timeouts"] == 2
