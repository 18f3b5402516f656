"""The table's orders panel: queue a move while waiting (the board's move forms post to
"queue"), see and cancel queued moves, the dropped notice, game kinds as generated forms; only
the seat itself sees any of it."""
import json

import pytest
from django.test import Client

from games import registry
from matches import orders as match_orders
from tests.platform.test_orders import _hand, _two

pytestmark = pytest.mark.django_db


def _client(user, lang="en") -> Client:
    if lang != "en":
        user.profile.language = lang
        user.profile.save(update_fields=["language"])
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    c.force_login(user)
    return c


def test_queue_a_move_while_waiting_then_cancel_it(make_user):
    match, mover, waiter = _two(make_user)
    c = _client(waiter)
    page = c.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="queue-move"' in page and "/orders/queue/" not in page
    live = c.get(f"/matches/{match.pk}/live/?queue=1").content.decode()
    assert 'id="queue-banner"' in live and live.count(f'action="/matches/{match.pk}/orders/queue/"') == 3
    card = _hand(match, waiter)[1]
    r = c.post(f"/matches/{match.pk}/orders/queue/", {"action": json.dumps({"type": "play", "card": card})},
               HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    body = r.content.decode()
    assert 'id="orders-queued"' in body and f"card {card}" in body and 'id="queue-banner"' not in body
    assert match_orders.get(match.pk, waiter)["orders"] == [{"kind": "premove", "action": {"type": "play", "card": card}}]
    # The other seat and a spectator see nothing of it.
    for other in (_client(mover), Client()):
        text = other.get(f"/matches/{match.pk}/").content.decode()
        assert 'id="orders-queued"' not in text and "premove" not in text
    r = c.post(f"/matches/{match.pk}/orders/cancel/",
               {"index": 0, "action": json.dumps({"type": "play", "card": card}, sort_keys=True)}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and 'id="orders-queued"' not in r.content.decode()
    assert match_orders.get(match.pk, waiter)["orders"] == []


def test_cancel_of_a_stale_index_cancels_nothing(make_user):
    match, mover, waiter = _two(make_user)
    hand = _hand(match, waiter)
    match_orders.put(match.pk, waiter, [{"kind": "premove", "action": {"type": "play", "card": c}} for c in hand[:2]])
    _client(waiter).post(f"/matches/{match.pk}/orders/cancel/",
                         {"index": 0, "action": json.dumps({"type": "play", "card": hand[1]}, sort_keys=True)})
    assert len(match_orders.get(match.pk, waiter)["orders"]) == 2


def test_the_player_to_move_and_the_queue_refusals(make_user):
    match, mover, waiter = _two(make_user)
    page = _client(mover).get(f"/matches/{match.pk}/").content.decode()
    assert 'id="queue-move"' not in page  # to move: no queueing, the moves are the board's own
    r = _client(waiter, "de").post(f"/matches/{match.pk}/orders/queue/", {"action": "{"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 400
    stranger = _client(make_user("stranger"))
    r = stranger.post(f"/matches/{match.pk}/orders/queue/", {"action": json.dumps({"type": "draw"})},
                      HTTP_HX_REQUEST="true")
    assert r.status_code == 403


def test_dropped_notice_on_the_table_in_both_languages(make_user):
    from matches import services as match_services

    match, mover, waiter = _two(make_user)
    match_orders.put(match.pk, waiter, [{"kind": "premove", "action": {"type": "play", "card": 999}}])
    match_services.submit_action(match.pk, mover, {"type": "play", "card": _hand(match, mover)[0]}, match.version)
    en = _client(waiter).get(f"/matches/{match.pk}/").content.decode()
    assert 'id="orders-dropped"' in en and "card 999" in en and "no longer legal" in en
    assert 'id="orders-dropped"' not in _client(mover).get(f"/matches/{match.pk}/").content.decode()
    r = _client(waiter).post(f"/matches/{match.pk}/orders/cancel/", {}, HTTP_HX_REQUEST="true")
    assert 'id="orders-dropped"' not in r.content.decode()


def test_game_kinds_become_forms(make_user, monkeypatch):
    from games.base import OrderKind

    plugin = registry.get("kartenduell")
    kind = OrderKind("tempo", {"type": "object", "required": ["kind", "speed"],
                               "properties": {"kind": {"const": "tempo"}, "speed": {"enum": ["slow", "fast"]},
                                              "level": {"enum": [1, 2]}, "fixed": {"const": "yes"}}},
                     "Play at this speed.", "In diesem Tempo spielen.",
                     {"de": {"speed": "Tempo", "speed.fast": "schnell"}})
    monkeypatch.setattr(type(plugin), "order_kinds", lambda self: (kind,), raising=False)
    monkeypatch.setattr(type(plugin), "clean_order", lambda self, order: dict(order), raising=False)
    match, mover, waiter = _two(make_user)
    c = _client(waiter, "de")
    page = c.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-kind="tempo"' in page and "In diesem Tempo spielen." in page and 'name="speed"' in page
    # The game's labels name the field and the choice; a choice without one shows its value.
    assert "<label>Tempo" in page
    assert '<option value="fast">schnell</option>' in page and '<option value="slow">slow</option>' in page
    c.post(f"/matches/{match.pk}/orders/set/", {"kind": "tempo", "speed": "fast", "level": "2"})
    assert match_orders.get(match.pk, waiter)["orders"] == [{"kind": "tempo", "speed": "fast", "level": 2, "fixed": "yes"}]
    c.post(f"/matches/{match.pk}/orders/set/", {"kind": "tempo", "speed": "slow", "level": ""})
    assert match_orders.get(match.pk, waiter)["orders"] == [{"kind": "tempo", "speed": "slow", "fixed": "yes"}]
    c.post(f"/matches/{match.pk}/orders/set/", {"kind": "tempo", "remove": "1"})
    assert match_orders.get(match.pk, waiter)["orders"] == []


def test_queued_alchemist_moves_read_as_the_board_says(make_user):
    """The game names a queued move (``Plugin.action_text``): cauldrons counted from 1."""
    a, b = make_user("a"), make_user("b")
    match = start_minigame_of("alchemist", a, b)
    waiter = next(s.user for s in match.seats.select_related("user") if s.seat not in match.to_move)
    action = registry.get("alchemist").premove_actions(match.state, match.seats.get(user=waiter).seat)[-1]
    match_orders.put(match.pk, waiter, [{"kind": "premove", "action": action}])
    page = _client(waiter).get(f"/matches/{match.pk}/").content.decode()
    assert f"cauldron {action['cauldron'] + 1}:" in page
    assert f"Kessel {action['cauldron'] + 1}:" in _client(waiter, "de").get(f"/matches/{match.pk}/").content.decode()


def start_minigame_of(game, host, *others):
    from lobby import services as lobby

    invitation = lobby.create_invitation(host, game=game, players=1 + len(others))
    for user in others:
        invitation = lobby.join(invitation.pk, user)
    invitation.refresh_from_db()
    return invitation.match


def test_der_orden_queues_a_move_for_its_turn_and_keeps_it_through_windows(make_user, monkeypatch):
    """Der Orden's "queue a move": a waiting seat queues a card of its hand (named on its table),
    nothing of it leaves while the other seat's turn goes on, and it is played the moment the
    waiting seat's own turn begins, in the transaction of the move that handed it over."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from match_page import make_match
    from matches import services
    from matches.models import LogEntry, Match

    def turn_start(state):
        return state.get("phase") == "main" and state["t"]["plays"] == 0 and state["t"]["acts"] == 0

    match, mover = make_match("orden", 2, 6, "q", until=turn_start)
    plugin = registry.get("orden")
    waiter = match.seats.exclude(user=mover).get().user
    w = match.seats.get(user=waiter).seat
    queueable = plugin.premove_actions(match.state, w)
    assert queueable and {a["type"] for a in queueable} <= {"play", "activate"}
    play = next(a for a in queueable if a["type"] == "play")
    c = _client(waiter, "de")
    live = c.get(f"/matches/{match.pk}/live/?queue=1").content.decode()
    assert 'id="queue-banner"' in live and f'action="/matches/{match.pk}/orders/queue/"' in live
    r = c.post(f"/matches/{match.pk}/orders/queue/", {"action": json.dumps(play)}, HTTP_HX_REQUEST="true")
    body = r.content.decode()
    from games.orden import rules as R

    no = match.state["ci"][play["card"]]
    assert f"Ausspielen „{R.C[no].name.de}“" in body and 'id="orders-queued"' in body
    assert 'id="orders-review" open' in body  # the answer shows what changed
    # the mover's page shows nothing of it
    assert 'id="orders-queued"' not in _client(mover).get(f"/matches/{match.pk}/").content.decode()
    # the mover plays on and ends the turn; the queued card is played as the waiter's turn begins
    for _ in range(30):
        match = Match.objects.get(pk=match.pk)
        if match.to_move != [1 - w]:
            break
        legal = plugin.engine.legal_actions(match.state, 1 - w)
        action = next((a for a in legal if a["type"] == "end_turn"), legal[0])
        services.submit_action(match.pk, mover, action, match.version)
    match = Match.objects.get(pk=match.pk)
    last = LogEntry.objects.filter(match=match, seat=w, kind=LogEntry.Kind.ACTION).order_by("-seq").first()
    assert last is not None and last.action == play, "the queued card was not played when the turn came"
    assert match_orders.get(match.pk, waiter)["orders"] == []


def test_der_orden_keeps_queued_moves_while_a_window_asks_the_seat():
    """A reaction window or payment that asks the waiting seat between its turns is no place for
    its queued card: the platform leaves the queue alone there (``premove_due``)."""
    state = {"phase": "react", "res": None, "cur": 0, "pend": {"asked": 1}}
    plugin = registry.get("orden")
    assert not plugin.premove_due(state, 1)
    assert not plugin.premove_due({**state, "phase": "pay", "res": {"seat": 1}}, 1)
    assert plugin.premove_due({"phase": "main", "res": None, "cur": 1}, 1)
    assert registry.get("alchemist").premove_due({}, 0)  # the default: whenever the seat is to move
