"""Orders are private (platform.md "Playing over days"): nothing another seat or a spectator
receives depends on a seat's orders beyond the actions they produce.

- Static, with the hidden-information scanner's collection (every GET route about the match,
  refused requests' bodies, the websocket frames of each group): a waiting seat leaves orders
  (queued moves, every declared kind of its game) and everything the others receive stays
  byte-for-byte the same.
- Dynamic: two matches from the same seed, with the same players; in one the waiting seat plays
  its move by hand, in the other a premove plays it (after an illegal premove that is dropped).
  The other seats and the spectator receive the same frames, log and match payload.
"""
from __future__ import annotations

import json
import random

import pytest
from django.test import Client

from games import registry
from games.base import BadOptions
from matches import live, orders as match_orders
from matches.models import Match
from matches.services import start_match, submit_action
from tests.security.test_hidden_information import Viewers, players_for

pytestmark = pytest.mark.django_db(transaction=True)


def _game_orders(plugin) -> list[dict]:
    """One cleanable order of each declared kind (from its schema's first values)."""
    out = []
    for kind in plugin.order_kinds():
        order = {"kind": kind.kind}
        for name, prop in (kind.schema.get("properties") or {}).items():
            if name != "kind" and isinstance(prop, dict):
                if "const" in prop:
                    order[name] = prop["const"]
                elif prop.get("enum"):
                    order[name] = prop["enum"][-1]
        for candidate in (order, {k: v for k, v in order.items() if k in ("kind", "policy")}):
            try:
                out.append(plugin.clean_order(candidate))
                break
            except BadOptions:
                continue
    return out


@pytest.mark.parametrize("slug", sorted(registry.plugins()))
def test_a_seats_orders_change_nothing_the_others_receive(slug, django_user_model):
    plugin = registry.get(slug)
    n = players_for(plugin)
    users = [django_user_model.objects.create_user(f"o{slug[:6]}{i}", password="x") for i in range(n)]
    match = start_match(game=slug, entrants=[{"user": u, "bot": "", "choices": {}} for u in users],
                        options={}, public=True, seed=4242)
    viewers = Viewers(match, users)
    rng = random.Random(3)
    for step in range(3 + n):  # three moves, then on until a seat waits (simultaneous turns ask all)
        match.refresh_from_db()
        if step >= 3 and len(match.to_move) < n:
            break
        seat = match.to_move[0]
        submit_action(match.pk, viewers.seat_user[seat], rng.choice(plugin.engine.legal_actions(match.state, seat)),
                      match.version)
    match.refresh_from_db()
    viewers.everything()  # viewing's own side effects (read notifications) settle first
    baseline = viewers.everything()
    checked = 0
    for owner in range(n):
        if owner in match.to_move:
            continue
        premoves = plugin.premove_actions(match.state, owner)[:2] or [{"type": "zz-not-a-move"}]
        orders = [{"kind": "premove", "action": a} for a in premoves] + _game_orders(plugin)
        stored = match_orders.put(match.pk, viewers.seat_user[owner], orders)["orders"]
        assert stored == match_orders.clean(plugin, orders)
        try:
            again = viewers.everything()
        finally:
            match_orders.put(match.pk, viewers.seat_user[owner], [])
        for viewer in viewers.clients:
            if viewer == owner:
                continue
            for channel in ("http", "ws"):
                before, after = baseline[viewer][channel], again[viewer][channel]
                diff = [k for k in before if before[k] != after.get(k)] if channel == "http" else channel
                assert before == after, f"{slug}: what seat {viewer} receives ({diff}) depends on seat {owner}'s orders"
            checked += 1
        # The owner's own page shows them (the scanner would not notice a panel that never renders).
        assert "premove" not in json.dumps(again[owner]["ws"])
    assert checked >= 2


def _run(slug, users, by_premove: bool, monkeypatch):
    """A match from a fixed seed: the first mover plays, then the waiting seat plays its first
    queueable move, by hand or by premove. Returns what every group received, normalised."""
    plugin = registry.get(slug)
    match = start_match(game=slug, entrants=[{"user": u, "bot": "", "choices": {}} for u in users],
                        options={}, public=True, seed=777)
    sent = []
    real = live._send_all
    monkeypatch.setattr(live, "_send_all", lambda messages: (sent.extend(messages), real(messages))[1])
    mover = match.to_move[0]
    seat_user = {s.seat: s.user for s in match.seats.select_related("user")}
    waiter = (mover + 1) % len(users)
    first = plugin.engine.legal_actions(match.state, mover)[0]
    after_first = plugin.engine.apply(match.state, mover, first).state
    assert after_first["turn"] == waiter if "turn" in after_first else True
    reply = plugin.engine.legal_actions(after_first, waiter)[0]
    assert reply in plugin.premove_actions(match.state, waiter), "the reply must be queueable beforehand"
    if by_premove:
        match_orders.put(match.pk, seat_user[waiter], [{"kind": "premove", "action": {"type": "zz-not-a-move"}},
                                                       {"kind": "premove", "action": reply}])
    submit_action(match.pk, seat_user[mover], first, 0)
    if not by_premove:
        submit_action(match.pk, seat_user[waiter], reply, 1)
    match.refresh_from_db()
    assert match.version == 2
    received = {}
    for group, message in sent:
        frame = json.loads(message["text"])
        if frame.get("type") == "turn":  # a badge: how many matches wait for the user (the last count counts)
            received[group] = frame["count"]
            continue
        frame["match"] = "M"
        received.setdefault(group.replace(f".{match.pk}.", ".M."), []).append(frame)
    monkeypatch.setattr(live, "_send_all", real)
    pages = {}
    for seat, user in [*seat_user.items(), (None, None)]:
        client = Client()
        if user is not None:
            client.force_login(user)
        log = client.get(f"/api/matches/{match.pk}/log/").json()
        payload = client.get(f"/api/matches/{match.pk}/").json()
        pages[seat] = ([{k: v for k, v in e.items() if k != "at"} for e in log],
                       {k: v for k, v in payload.items() if k not in ("id", "created_at", "updated_at", "finished_at")})
    # Out of the way of the next run's "your turn" counts.
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED)
    match.seats.update(to_move=False)
    return waiter, seat_user[waiter].pk, received, pages


@pytest.mark.parametrize("slug", ["kartenduell", "alchemist"])
def test_a_premove_looks_like_a_move_by_hand(slug, django_user_model, monkeypatch):
    users = [django_user_model.objects.create_user(f"p{slug[:6]}{i}", password="x") for i in range(2)]
    waiter, waiter_user, by_hand, pages_by_hand = _run(slug, users, False, monkeypatch)
    _, _, by_order, pages_by_order = _run(slug, users, True, monkeypatch)
    others = [s for s in (0, 1) if s != waiter]
    for group in set(by_hand) | set(by_order):
        if group.endswith(f".seat.{waiter}") or group == live.user_group(waiter_user):
            continue  # the waiting seat's own channels: its view, its badge
        assert by_hand.get(group) == by_order.get(group), f"{slug}: {group} receives something else"
    for viewer in [*others, None]:
        (log_a, match_a), (log_b, match_b) = pages_by_hand[viewer], pages_by_order[viewer]
        assert log_a == log_b, f"{slug}: seat {viewer}'s log differs"
        diff = {k: (match_a.get(k), match_b.get(k)) for k in set(match_a) | set(match_b) if match_a.get(k) != match_b.get(k)}
        assert not diff, f"{slug}: seat {viewer}'s match payload differs: {diff}"

