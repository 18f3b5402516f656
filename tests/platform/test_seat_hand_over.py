"""A seat changes hands cleanly: notes and orders belong to the
person who wrote them, not to the seat; the log names who acted at the time; the export, the
deletion and the privacy notice cover orders."""
import pytest
from rest_framework.test import APIClient

from matches import orders as match_orders, services
from matches.models import LogEntry, Seat, SeatOrders
from privacy.erase import erase
from privacy.export import export
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db

PLAN = "I hold card 220 x2, plan to bluff carol"
PREMOVE = [{"kind": "premove", "action": {"play": 1}}]


def _client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def _handed_over(make_user, capture):
    """bob (not to move) writes a note and arms an order, resigns; subby takes the seat."""
    players = [make_user(n) for n in ("p1", "p2", "p3")]
    subby = make_user("subby")
    match = start_minigame(*players)
    # bob is one who waits (seats are drawn by lot): his order stays armed until he leaves.
    seat = next(s for s in match.seats.select_related("user") if s.seat not in match.to_move)
    bob = seat.user
    bob.username = "bob"
    bob.save()
    seat = seat.seat
    assert _client(bob).put(f"/api/matches/{match.pk}/notes/", {"text": PLAN}, format="json").status_code == 200
    assert _client(bob).put(f"/api/matches/{match.pk}/orders/", {"orders": PREMOVE},
                            format="json").json() == {"orders": PREMOVE}
    with capture(execute=True):
        services.resign(match.pk, bob)
        services.hand_over_seat(match.pk, seat, subby)
    return match, seat, bob, subby


def test_notes_and_orders_stay_with_the_leaver(make_user, django_capture_on_commit_callbacks):
    match, seat, bob, subby = _handed_over(make_user, django_capture_on_commit_callbacks)
    # The substitute starts with nothing of bob's.
    assert _client(subby).get(f"/api/matches/{match.pk}/notes/").json() == {"text": ""}
    assert _client(subby).get(f"/api/matches/{match.pk}/orders/").json() == {"orders": []}
    assert not SeatOrders.objects.filter(seat__match=match, seat__seat=seat).exists()
    assert not Seat.objects.get(match=match, seat=seat).has_orders
    page = _client(subby).get(f"/matches/{match.pk}/").content.decode()
    assert "bluff carol" not in page
    # bob keeps read access to his own notes, and finds them in his export; he writes no more.
    assert _client(bob).get(f"/api/matches/{match.pk}/notes/").json() == {"text": PLAN}
    assert _client(bob).put(f"/api/matches/{match.pk}/notes/", {"text": "x"}, format="json").status_code == 403
    data = export(bob)
    assert [(n["match"], n["text"]) for n in data["notes"]] == [(match.pk, PLAN)]
    assert data["orders"] == []  # they ended with the hand-over
    # ... and was told that his armed orders ended.
    from notifications.models import Notification

    assert Notification.objects.filter(user=bob, kind="orders_ended", match_id=match.pk).count() == 1
    assert "subby" not in str(export(subby)["notes"]) and export(subby)["notes"] == []


def test_the_log_names_who_acted_at_the_time(make_user, django_capture_on_commit_callbacks):
    match, seat, bob, subby = _handed_over(make_user, django_capture_on_commit_callbacks)
    log = _client(subby).get(f"/api/matches/{match.pk}/log/").json()
    resign = next(line for line in log if line["kind"] == "resign")
    assert resign["text"] == ["bob resigns."], resign
    hand_over = [line for line in log if line["kind"] == "seat"]
    assert len(hand_over) == 1 and "subby takes over bob's seat" in " ".join(hand_over[0]["text"])
    entry = LogEntry.objects.get(match=match, kind="resign")
    assert entry.actor_id == bob.pk  # stored at write time
    # The same on the page and in the replay.
    page = _client(subby).get(f"/matches/{match.pk}/").content.decode()
    assert "subby resigns" not in page and "subby gibt auf" not in page


def test_export_lists_orders_and_deletion_erases_them(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    waiter = next(s.user for s in match.seats.select_related("user") if s.seat not in match.to_move)
    match_orders.put(match.pk, waiter, PREMOVE)
    assert export(waiter)["orders"] == [{"match": match.pk, "seat": match.seats.get(user=waiter).seat,
                                         "orders": PREMOVE}]
    erase(waiter)
    assert not SeatOrders.objects.filter(seat__match=match).exists()
    assert not Seat.objects.filter(match=match, has_orders=True).exists()


def test_the_privacy_notice_names_orders(client):
    for lang, word in (("en", "orders"), ("de", "Anweisungen")):
        page = client.get("/privacy/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert page.count(word) >= 2, lang  # what is kept, what deletion erases
