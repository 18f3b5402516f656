"""Substitutes: a seat left by a resignation or timeout in a 3-4 player match
is offered in the lobby and to the players' friends for the invitation's substitute_hours
before its bot keeps it; a substitute takes the seat, the log keeps the hand-over, the leaver
is rated last and the substitute on the seat's place."""
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clocks import services as clocks
from clocks.models import SeatClock
from community import services as community
from lobby import substitutes
from lobby.errors import LobbyError
from lobby.models import SubstituteOffer
from matches import services
from matches.models import LogEntry, Match, Seat
from ratings.models import RatingChange
from tests.conftest import wait_for
from tests.platform.helpers import start_minigame
from tests.ratings.play import play_to_end, plays_only

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _offer(match):
    return wait_for(lambda: SubstituteOffer.objects.filter(match=match).first())


def test_a_resigned_seat_is_offered_while_its_bot_plays_on(make_user, celery_worker):
    a, b, c, friend, other = (make_user(n) for n in ("a", "b", "c", "friend", "other"))
    community.add_friend(b, "friend")
    match = start_minigame(a, b, c)
    services.resign(match.pk, c)
    offer = _offer(match)
    seat = Seat.objects.get(match=match, seat=offer.seat)
    assert (offer.leaver, offer.reason, offer.status) == (c, "resigned", "open")
    assert abs((offer.expires_at - offer.created_at) - timedelta(hours=24)) < timedelta(seconds=5)
    assert seat.bot and seat.user == c  # the bot plays meanwhile: the match does not stall
    # The lobby lists it (public match), with nothing private: game, seat, reason, expiry.
    rows = _client(other).get("/api/substitutes/").json()
    assert [(r["id"], r["match"], r["seat"], r["reason"]) for r in rows] == [(offer.pk, match.pk, offer.seat, "resigned")]
    assert set(rows[0]) == {"id", "match", "game", "game_name", "seat", "reason", "expires_at"}
    assert _client(a).get("/api/substitutes/").json() == []  # not to the players themselves
    assert _client(c).get("/api/substitutes/").json() == []  # nor to the leaver
    from notifications.models import Notification

    told = Notification.objects.filter(kind="substitute_wanted")
    assert [n.user.username for n in told] == ["friend"]


def test_a_substitute_takes_the_seat_and_the_log_and_ratings_stay_true(make_user, celery_worker):
    a, b, c, d = (make_user(n) for n in ("a", "b", "c", "d"))
    match = start_minigame(a, b, c)
    services.resign(match.pk, c)
    offer = _offer(match)
    before = _client(d).get(f"/api/matches/{match.pk}/").json()
    assert before["your_seat"] is None  # no private view before joining

    answer = _client(d).post(f"/api/substitutes/{offer.pk}/take/")
    assert answer.status_code == 200, answer.content
    seat = Seat.objects.get(match=match, seat=offer.seat)
    assert (seat.user, seat.bot, seat.resigned) == (d, "", False)
    offer.refresh_from_db()
    assert (offer.status, offer.substitute) == ("taken", d)
    entry = LogEntry.objects.filter(match=match, kind="seat").get()
    assert entry.events[0] | {} == {"type": "substitute", "seat": offer.seat, "left": c.pk, "left_name": "c",
                                   "joined": d.pk, "joined_name": "d"}
    log = _client(a).get(f"/api/matches/{match.pk}/log/").json()
    assert any("d takes over c's seat" in " ".join(line["text"]) for line in log)
    after = _client(d).get(f"/api/matches/{match.pk}/").json()
    assert after["your_seat"] == offer.seat  # the seat's own view, now that d plays it
    # Taken: nobody else can; the lobby no longer lists it.
    assert _client(make_user("e")).post(f"/api/substitutes/{offer.pk}/take/").status_code == 409
    assert _client(a).get("/api/substitutes/").json() == []

    match = play_to_end(match, plays_only)
    placements = {p["seat"]: p for p in match.outcome["placements"]}
    assert "forfeit" not in placements[offer.seat] and not placements[offer.seat].get("resigned")
    wait_for(lambda: RatingChange.objects.filter(match=match).count() == 4)
    places = dict(RatingChange.objects.filter(match=match).values_list("user__username", "place"))
    # the leaver: behind every seat (placements may share a place: "4th" only without a tie)
    assert places["c"] == max(p["place"] for p in placements.values()) + 1
    assert places["d"] == placements[offer.seat]["place"]  # the substitute: the seat's place


def test_who_may_not_take_a_seat(make_user, celery_worker):
    a, b, c, d, blocked = (make_user(n) for n in ("a", "b", "c", "d", "blocked"))
    community.block(a, "blocked")
    match = start_minigame(a, b, c)
    services.resign(match.pk, c)
    offer = _offer(match)
    assert _client(blocked).get("/api/substitutes/").json() == []  # not offered across a block
    assert len(_client(d).get("/api/substitutes/").json()) == 1
    cases = [(c, 403, "cannot come back"), (blocked, 403, "block"), (b, 409, "already play")]
    for user, status, words in cases:
        answer = _client(user).post(f"/api/substitutes/{offer.pk}/take/")
        assert answer.status_code == status and words in answer.json()["detail"], (user, answer.content)
    assert Seat.objects.get(match=match, seat=offer.seat).user == c  # nothing half-applied
    offer.refresh_from_db()
    assert offer.status == "open"
    assert _client(d).post("/api/substitutes/999999/take/").status_code == 404


def test_the_offer_expires_and_the_bot_keeps_the_seat(make_user, celery_worker):
    a, b, c, d = (make_user(n) for n in ("a", "b", "c", "d"))
    match = start_minigame(a, b, c, substitute_hours=2)
    services.resign(match.pk, c)
    offer = _offer(match)
    assert abs((offer.expires_at - offer.created_at) - timedelta(hours=2)) < timedelta(seconds=5)
    counts = clocks.sweep(timezone.now() + timedelta(hours=3))
    assert counts.get("substitute_offers") == 1
    offer.refresh_from_db()
    assert offer.status == "expired"
    with pytest.raises(LobbyError) as err:
        substitutes.take(offer.pk, d)
    assert err.value.status == 409
    assert Seat.objects.get(match=match, seat=offer.seat).bot


def test_no_offer_with_two_players_or_zero_hours(make_user, celery_worker):
    a, b, c, d, e = (make_user(n) for n in ("a", "b", "c", "d", "e"))
    two = start_minigame(a, b)
    services.resign(two.pk, b)
    none = start_minigame(c, d, e, substitute_hours=0)
    services.resign(none.pk, e)
    wait_for(lambda: LogEntry.objects.filter(match=none, kind="resign").exists())
    assert not SubstituteOffer.objects.exists()


def test_a_timed_out_seat_is_offered_and_its_clock_goes_to_the_substitute(make_user, celery_worker):
    a, b, c, d = (make_user(n) for n in ("a", "b", "c", "d"))
    match = start_minigame(a, b, c)
    match.refresh_from_db()
    mover = Seat.objects.get(match=match, seat=match.to_move[0])
    wait_for(lambda: SeatClock.objects.filter(seat=mover, started_at__isnull=False).exists())
    counts = clocks.sweep(timezone.now() + timedelta(days=30))
    assert counts["timeouts"] == 1
    offer = _offer(match)
    assert (offer.leaver_id, offer.reason, offer.seat) == (mover.user_id, "timeout", mover.seat)
    substitutes.take(offer.pk, d)
    clock = SeatClock.objects.get(seat=mover)
    assert clock.user == d and not clock.timed_out
    # The leaver's record keeps the timeout.
    from clocks.models import PlayerRecord

    assert PlayerRecord.objects.get(user_id=offer.leaver_id).timeouts == 1
    assert Match.objects.get(pk=match.pk).status == "active"
