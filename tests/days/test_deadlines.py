"""Deadlines first: ``deadline`` on my matches (the clocks' own arithmetic:
weekends off, vacations), ``?order=deadline``, "My games" with time left sorted by it, and
"Next game" = least time left unless the player keeps "longest waiting"."""
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from clocks import services as clocks
from clocks.models import SeatClock, TimeControl
from notifications.models import Preference
from tests.days.helpers import client_for, move, start, to_move

pytestmark = pytest.mark.django_db(transaction=True)


def _rows(client, query=""):
    return client.get(f"/api/matches/?mine=1{query}").json()


def _clock_deadline(match, user):
    """When the running clock runs out, by the clocks' own status() (not the stored column)."""
    clock = SeatClock.objects.select_related("user__profile").get(match=match, user=user)
    return clocks.status(clock, TimeControl.objects.get(match=match), timezone.now())["deadline"]


def _waiting_for(user, *matches):
    for m in matches:
        if to_move(m) != user:
            move(m)
        assert to_move(m) == user


def test_deadline_rows_sorted_and_next_game(make_user):
    anna, bert, carl = make_user("anna"), make_user("bert"), make_user("carl")
    slow = start([anna, bert], move_days=5)
    _waiting_for(anna, slow)  # waits longest for anna
    fast = start([anna, carl], move_days=1)
    _waiting_for(anna, fast)
    other = start([anna, bert], move_days=2)
    if to_move(other) == anna:
        move(other)  # anna is not to move here: no deadline of hers
    a = client_for(anna)
    rows = {r["id"]: r for r in _rows(a)}
    assert rows[other.pk]["deadline"] is None
    for m in (slow, fast):
        assert parse_datetime(rows[m.pk]["deadline"]) == _clock_deadline(m, anna)
        assert rows[m.pk]["deadline"].endswith("Z")
    assert [r["id"] for r in _rows(a, "&order=deadline")] == [fast.pk, slow.pk, other.pk]
    assert [r["id"] for r in _rows(a, "&to_move=1&order=deadline")] == [fast.pk, slow.pk]
    r = a.get("/api/matches/?mine=1&order=nonsense")
    assert r.status_code == 400 and r.json()["error"] == "bad_order"
    # Next game: least time left; the setting keeps "longest waiting".
    assert a.get("/next-game/").url == f"/matches/{fast.pk}/"
    r = a.post("/notifications/settings/", {"form": "prefs", "digest_hour": 8, "next_game": "waiting"})
    assert r.status_code == 302 and Preference.objects.get(user=anna).next_game == "waiting"
    assert a.get("/next-game/").url == f"/matches/{slow.pk}/"
    # My games: time left per row, least first.
    page = a.get("/my-games/").content.decode()
    assert page.index(f'data-match="{fast.pk}"') < page.index(f'data-match="{slow.pk}"') \
        < page.index(f'data-match="{other.pk}"')
    assert len(re.findall(r'class="time-left"[^>]*><time', page)) == 2  # (a phone label sits between)


def test_deadline_follows_weekends_off_and_vacations(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start([anna, bert], move_days=2, clock_weekends_off=True)
    player = to_move(match)
    row = next(r for r in _rows(client_for(player)) if r["id"] == match.pk)
    assert parse_datetime(row["deadline"]) == _clock_deadline(match, player)
    clocks.take_vacation(player, timezone.now() + timedelta(hours=1), 3)
    row = next(r for r in _rows(client_for(player)) if r["id"] == match.pk)
    moved = parse_datetime(row["deadline"])
    assert moved == _clock_deadline(match, player) and moved - timedelta(days=3) >= timezone.now()
    move(match, player)  # the clock stops: no deadline
    assert next(r for r in _rows(client_for(player)) if r["id"] == match.pk)["deadline"] is None


def _count(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx)


def test_my_games_query_counts_stay_constant(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    start([anna, bert])
    a = client_for(anna)
    urls = ["/my-games/", "/api/matches/?mine=1&order=deadline"]
    few = [_count(a, u) for u in urls]
    for i in range(4):
        _waiting_for(anna, start([anna, make_user(f"p{i}")], move_days=1 + i))
    assert [_count(a, u) for u in urls] == few
