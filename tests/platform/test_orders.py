"""Orders (platform.md, "Playing over days" → "Orders"): the API's shapes and refusals, premoves
played when the turn comes (in the transaction of the move that handed it over) or dropped with
a notice, the game's own kinds asked first, and the bookkeeping of a change with several log
entries."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import registry
from matches import orders as match_orders, orders_follow, services as match_services
from matches.models import LogEntry, Match, Seat
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def _two(make_user):
    """A Kartenduell match of a and b; returns (match, mover, waiter) with the waiter's seat."""
    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    mover_seat = match.to_move[0]
    seats = {s.seat: s.user for s in match.seats.select_related("user")}
    return match, seats[mover_seat], seats[1 - mover_seat]


def _hand(match, user) -> list[int]:
    match.refresh_from_db()
    return match.state["hands"][match.seats.get(user=user).seat]


def test_games_list_the_order_kinds_with_the_generic_premove():
    games = APIClient().get("/api/games/").json()
    for game in games:
        assert "premove" in game["orders"], game["slug"]
        for kind, spec in game["orders"].items():
            assert set(spec) == {"schema", "text"} and isinstance(spec["schema"], dict)
            assert set(spec["text"]) == {"en", "de"} and spec["text"]["en"] and spec["text"]["de"]
        declared = [k.kind for k in registry.get(game["slug"]).order_kinds()]
        assert set(game["orders"]) == {"premove", *declared}


def test_openapi_describes_orders():
    schema = APIClient().get("/api/schema/?format=json").json()
    assert "/api/matches/{id}/orders/" in schema["paths"]
    assert set(schema["paths"]["/api/matches/{id}/orders/"]) >= {"get", "put"}
    assert "orders" in schema["components"]["schemas"]["Game"]["properties"]


def test_get_and_put_own_orders(make_user):
    match, mover, waiter = _two(make_user)
    c = _client(waiter)
    assert c.get(f"/api/matches/{match.pk}/orders/").json() == {"orders": []}
    card = _hand(match, waiter)[0]
    orders = [{"kind": "premove", "action": {"type": "play", "card": card}}]
    r = c.put(f"/api/matches/{match.pk}/orders/", {"orders": orders}, format="json")
    assert r.status_code == 200, r.content
    assert r.json() == {"orders": orders}
    assert c.get(f"/api/matches/{match.pk}/orders/").json() == {"orders": orders}
    assert Seat.objects.get(match=match, user=waiter).has_orders
    r = c.put(f"/api/matches/{match.pk}/orders/", {"orders": []}, format="json")
    assert r.json() == {"orders": []} and not Seat.objects.get(match=match, user=waiter).has_orders


def test_refusals(make_user):
    match, mover, waiter = _two(make_user)
    stranger = _client(make_user("stranger"))
    url = f"/api/matches/{match.pk}/orders/"
    for r in (stranger.get(url), stranger.put(url, {"orders": []}, format="json")):
        assert r.status_code == 403 and set(r.json()) >= {"error", "detail"}
    c = _client(waiter)
    for body in ({"orders": [{"kind": "sorcery"}]}, {"orders": [{"kind": "premove"}]},
                 {"orders": [{"kind": "premove", "action": "play"}]},
                 {"orders": [{"kind": "premove", "action": {"type": "play"}, "extra": 1}]},
                 {"orders": "premove"}, {"orders": [1]}, {"nothing": []},
                 {"orders": [{"kind": "premove", "action": {"type": "draw"}}] * 21}):
        r = c.put(url, body, format="json")
        assert r.status_code == 400, (body, r.content)
        assert r.json()["error"] and r.json()["detail"]
    assert "sorcery" in c.put(url, {"orders": [{"kind": "sorcery"}]}, format="json").json()["detail"]
    assert c.get(url).json() == {"orders": []}  # nothing half-applied
    assert APIClient().get(url).status_code in (401, 403)


def test_premove_is_played_in_the_transaction_of_the_move_that_hands_over_the_turn(make_user, django_capture_on_commit_callbacks):
    match, mover, waiter = _two(make_user)
    card = _hand(match, waiter)[0]
    match_orders.put(match.pk, waiter, [{"kind": "premove", "action": {"type": "play", "card": card}}])
    mover_card = _hand(match, mover)[0]
    with django_capture_on_commit_callbacks(execute=True):
        done = match_services.act(match.pk, mover, {"type": "play", "card": mover_card}, match.version)
    match.refresh_from_db()
    assert match.version == 2 and done.match.version == 2
    entries = list(LogEntry.objects.filter(match=match).order_by("seq"))
    waiter_seat = match.seats.get(user=waiter).seat
    assert [(e.seat, e.action) for e in entries] == [
        (1 - waiter_seat, {"type": "play", "card": mover_card}), (waiter_seat, {"type": "play", "card": card})]
    # An ordinary log entry: nothing says it was queued.
    assert entries[1].kind == LogEntry.Kind.ACTION and "premove" not in str(entries[1].events)
    assert match.to_move == [1 - waiter_seat]
    seats = {s.seat: s for s in match.seats.all()}
    assert seats[1 - waiter_seat].to_move and not seats[waiter_seat].to_move
    assert not seats[waiter_seat].has_orders
    assert match_orders.get(match.pk, waiter) == {"orders": [], "dropped": []}


def test_the_first_legal_premove_is_played_and_illegal_ones_before_it_dropped_with_a_notice(
        make_user, django_capture_on_commit_callbacks):
    from notifications.models import Notification

    match, mover, waiter = _two(make_user)
    hand = _hand(match, waiter)
    orders = [{"kind": "premove", "action": {"type": "play", "card": 999}},
              {"kind": "premove", "action": {"type": "play", "card": hand[1]}},
              {"kind": "premove", "action": {"type": "play", "card": hand[2]}}]
    match_orders.put(match.pk, waiter, orders)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.act(match.pk, mover, {"type": "play", "card": _hand(match, mover)[0]}, match.version)
    match.refresh_from_db()
    last = LogEntry.objects.filter(match=match).order_by("-seq").first()
    assert last.action == {"type": "play", "card": hand[1]}
    left = match_orders.get(match.pk, waiter)
    assert left["orders"] == [orders[2]]
    assert [d["action"] for d in left["dropped"]] == [{"type": "play", "card": 999}]
    note = Notification.objects.get(user=waiter, kind="premove_dropped")
    assert note.match_id == match.pk
    assert not Notification.objects.filter(user=mover, kind="premove_dropped").exists()


def test_the_follow_up_of_a_change_with_a_premove(make_user, django_capture_on_commit_callbacks):
    """Two log entries in one transaction: each version is announced; the clocks end up with
    the mover's running, and nobody is told "your turn" for the turn the premove took."""
    from clocks.models import SeatClock
    from notifications.models import Notification

    match, mover, waiter = _two(make_user)
    match_orders.put(match.pk, waiter, [{"kind": "premove", "action": {"type": "play", "card": _hand(match, waiter)[0]}}])
    with django_capture_on_commit_callbacks(execute=True):
        match_services.act(match.pk, mover, {"type": "play", "card": _hand(match, mover)[0]}, match.version)
    clocks = {c.user_id: c for c in SeatClock.objects.filter(match=match)}
    assert clocks[mover.pk].started_at is not None and clocks[waiter.pk].started_at is None
    assert clocks[waiter.pk].moves == 1
    assert not Notification.objects.filter(user=waiter, kind="your_turn").exists()
    assert Notification.objects.filter(user=mover, kind="your_turn").exists()  # the turn came back


def test_no_legal_premove_drops_all_and_leaves_the_turn_to_the_player(make_user, django_capture_on_commit_callbacks):
    from notifications.models import Notification

    match, mover, waiter = _two(make_user)
    match_orders.put(match.pk, waiter, [{"kind": "premove", "action": {"type": "play", "card": 998}},
                                        {"kind": "premove", "action": {"type": "play", "card": 999}}])
    with django_capture_on_commit_callbacks(execute=True):
        match_services.act(match.pk, mover, {"type": "play", "card": _hand(match, mover)[0]}, match.version)
    match.refresh_from_db()
    assert match.version == 1 and match.to_move == [match.seats.get(user=waiter).seat]
    state = match_orders.get(match.pk, waiter)
    assert state["orders"] == [] and len(state["dropped"]) == 2
    assert Notification.objects.filter(user=waiter, kind="premove_dropped").count() == 1
    assert not Seat.objects.get(match=match, user=waiter).has_orders
    # Changing one's orders clears the notice on the table.
    assert match_orders.put(match.pk, waiter, [])["dropped"] == []
    assert match_orders.get(match.pk, waiter)["dropped"] == []


def test_premoves_of_both_seats_play_on_in_one_change_and_stop_at_the_bound(make_user, monkeypatch):
    match, mover, waiter = _two(make_user)
    mover_hand, waiter_hand = _hand(match, mover), _hand(match, waiter)
    match_orders.put(match.pk, waiter, [{"kind": "premove", "action": {"type": "play", "card": c}} for c in waiter_hand])
    monkeypatch.setattr(orders_follow, "FOLLOW_LIMIT", 3)
    # The mover, to move, queues its whole hand: the seats' premoves play on by turns, in the
    # PUT's transaction, until the bound; the next change goes on.
    match_orders.put(match.pk, mover, [{"kind": "premove", "action": {"type": "play", "card": c}} for c in mover_hand])
    match.refresh_from_db()
    assert match.version == 3
    match_orders.put(match.pk, waiter, match_orders.get(match.pk, waiter)["orders"])
    match.refresh_from_db()
    assert match.version == 6 and match.status == Match.Status.FINISHED
    assert [e.seat for e in LogEntry.objects.filter(match=match).order_by("seq")] == [
        1 - match.seats.get(user=waiter).seat, match.seats.get(user=waiter).seat] * 3


def test_put_while_to_move_plays_at_once(make_user):
    match, mover, waiter = _two(make_user)
    card = _hand(match, mover)[0]
    assert match_orders.put(match.pk, mover, [{"kind": "premove", "action": {"type": "play", "card": card}}]) == {
        "orders": [], "dropped": []}
    match.refresh_from_db()
    assert match.version == 1 and match.state["played"][match.seats.get(user=mover).seat] == [card]


def test_game_orders_are_asked_first(make_user, monkeypatch):
    """A game's own kind (declared through the plugin hooks) answers before premoves."""
    from games.base import BadOptions, OrderKind

    plugin = registry.get("kartenduell")
    kind = OrderKind("always_draw", {"type": "object"}, "Always draw.", "Immer ziehen.")
    monkeypatch.setattr(type(plugin), "order_kinds", lambda self: (kind,), raising=False)

    def clean_order(self, order):
        if order.get("kind") != "always_draw":
            raise BadOptions("unknown", "unbekannt")
        return {"kind": "always_draw"}

    monkeypatch.setattr(type(plugin), "clean_order", clean_order, raising=False)
    monkeypatch.setattr(type(plugin), "ordered_action",
                        lambda self, state, seat, orders: {"type": "draw"} if state["deck"] else None, raising=False)
    match, mover, waiter = _two(make_user)
    card = _hand(match, waiter)[0]
    match_orders.put(match.pk, waiter, [{"kind": "premove", "action": {"type": "play", "card": card}},
                                        {"kind": "always_draw"}])
    match_services.act(match.pk, mover, {"type": "play", "card": _hand(match, mover)[0]}, match.version)
    last = LogEntry.objects.filter(match=Match.objects.get(pk=match.pk)).order_by("-seq").first()
    assert last.action == {"type": "draw"}
    assert match_orders.get(match.pk, waiter)["orders"] == [
        {"kind": "premove", "action": {"type": "play", "card": card}}, {"kind": "always_draw"}]


def test_a_move_without_orders_reads_no_orders(make_user):
    match, mover, waiter = _two(make_user)
    with CaptureQueriesContext(connection) as q:
        match_services.submit_action(match.pk, mover, {"type": "play", "card": _hand(match, mover)[0]}, match.version)
    assert not any("seatorders" in query["sql"].lower() for query in q.captured_queries)
