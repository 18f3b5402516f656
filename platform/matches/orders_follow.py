"""Following orders (matches/orders.py): the part the match writer calls inside its transaction.

Direction: ``services`` (the one writer) calls down into this module and hands it its own
``_apply`` as an argument, so following an order never imports the writer back; the entry points
that read and replace a seat's orders (``orders``) sit above both.

``follow`` is asked after every change that handed a seat its decision; with an answer delay
(``settings.ORDER_ANSWER_DELAY``) it starts a timer after the commit, which calls ``answer_due``
with the same ``apply``. A seat that holds orders, or a premove that was dropped, is told through
``signals`` (the notifications app words it); this module imports no other app.
"""
from __future__ import annotations

import contextvars
import logging
import random
import threading
from collections.abc import Callable

from django.conf import settings
from django.db import transaction

from games import registry
from games.base import Plugin

from . import signals
from .errors import IllegalMove, NotYourTurn
from .models import Match, Seat, SeatOrders

logger = logging.getLogger(__name__)

PREMOVE = "premove"
FOLLOW_LIMIT = 100  # ordered actions one change may set off (a game of standing orders must end)
MAX_DROPPED_SHOWN = 10

# The writer's step: apply(match, seat, action, seats=seats) -> LogEntry (services._apply).
Apply = Callable[..., object]

_following = contextvars.ContextVar("orders_following", default=False)


def store(seat: Seat, orders: list[dict], dropped: list | None = None) -> None:
    """Write the seat's orders (and the premoves dropped, if given) and keep ``has_orders`` true."""
    fields = {"orders": orders, "user_id": seat.user_id}
    if dropped is not None:
        fields["dropped"] = dropped[-MAX_DROPPED_SHOWN:]
    SeatOrders.objects.update_or_create(seat=seat, defaults=fields)
    if seat.has_orders != bool(orders):
        seat.has_orders = bool(orders)
        Seat.objects.filter(pk=seat.pk).update(has_orders=seat.has_orders)


def end_with_hand_over(match: Match, seat: Seat, leaver_id: int | None) -> None:
    """A substitute takes ``seat``: the leaver's orders end with it (orders are a person's, the
    substitute starts with none), and the leaver hears so after the commit. Call in the
    hand-over's transaction, before the seat's user changes."""
    row = SeatOrders.objects.filter(seat=seat).first()
    had = bool(row and row.orders)
    SeatOrders.objects.filter(seat=seat).delete()
    if seat.has_orders:
        seat.has_orders = False
        Seat.objects.filter(pk=seat.pk).update(has_orders=False)
    if had and leaver_id:
        match_id, game, count = match.pk, match.game, len(row.orders)
        # match.version read at the commit: the hand-over's own version (its log entry comes later)
        transaction.on_commit(lambda: signals.orders_ended.send(
            sender=Match, match_id=match_id, seat=seat.seat, user_id=leaver_id, game=game, count=count,
            version=match.version))


# --- following them ------------------------------------------------------------------------------
def due(match: Match, seats) -> bool:
    """Whether some seat to move holds orders: no query (the flag is on the seat rows)."""
    return match.status == Match.Status.ACTIVE and any(
        s.has_orders and s.seat in match.to_move and not s.bot and not s.resigned for s in seats)


def follow(match: Match, plugin: Plugin, seats: list[Seat] | None, apply: Apply) -> int:
    """Inside the writer's transaction, after a change: while a seat to move holds orders that
    take an action now, apply it (an ordinary log entry, through the writer's ``apply``). Returns
    how many actions the orders took. Re-entered from that ``apply`` it does nothing: the
    outer loop goes on."""
    if _following.get() or seats is None or not due(match, seats):
        return 0
    if delay_bounds()[1] > 0:
        _later(match, apply)
        return 0
    token = _following.set(True)
    taken = 0
    try:
        while taken < FOLLOW_LIMIT and due(match, seats):
            for seat in sorted(seats, key=lambda s: s.seat):
                if seat.has_orders and seat.seat in match.to_move and not seat.bot and not seat.resigned:
                    if _take(match, plugin, seat, seats, apply):
                        taken += 1
                        break
            else:
                break  # nobody's orders act now: the decisions are the people's
        if taken >= FOLLOW_LIMIT:
            logger.warning("orders of match %s took %d actions in one change; stopped", match.pk, taken)
    finally:
        _following.reset(token)
    return taken


def delay_bounds() -> tuple[float, float]:
    lo, hi = (tuple(getattr(settings, "ORDER_ANSWER_DELAY", (0, 0))) + (0, 0))[:2]
    return max(0.0, float(lo)), max(float(lo), float(hi))


_rng = random.SystemRandom()


def _later(match: Match, apply: Apply) -> None:
    """After the commit, start the timer that lets the orders answer (``answer_due``)."""
    match_id, version = match.pk, match.version
    lo, hi = delay_bounds()
    delay = _rng.uniform(lo, hi)

    def start():
        timer = threading.Timer(delay, _answer_in_thread, (match_id, version, apply))
        timer.daemon = True
        timer.start()

    transaction.on_commit(start)


def _answer_in_thread(match_id: int, version: int, apply: Apply) -> None:
    from django.db import close_old_connections, connection

    try:
        answer_due(match_id, version, apply)
    except Exception:  # a lost answer is played by the clock sweep (orders.answer_overdue)
        logger.exception("ordered answer for match %s v%s failed", match_id, version)
    finally:
        close_old_connections()
        connection.close()


def answer_due(match_id: int, version: int | None, apply: Apply) -> int:
    """Let the orders of seats to move answer now (one action; the next decision it opens is
    timed again). ``version``: the version the timer was started at; a match that changed
    since has started its own timer. Returns how many actions were taken (0 or 1)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or (version is not None and match.version != version):
            return 0
        seats = list(Seat.objects.filter(match_id=match.pk))
        if not due(match, seats):
            return 0
        plugin = registry.get(match.game)
        token = _following.set(True)
        try:
            taken = 0
            for seat in sorted(seats, key=lambda s: s.seat):
                if seat.has_orders and seat.seat in match.to_move and not seat.bot and not seat.resigned:
                    if _take(match, plugin, seat, seats, apply):
                        taken = 1
                        break
        finally:
            _following.reset(token)
        if taken and due(match, seats):
            _later(match, apply)  # the decision this answer opened is timed like any other
        return taken


def _take(match: Match, plugin: Plugin, seat: Seat, seats: list[Seat], apply: Apply) -> bool:
    """Let ``seat``'s orders act once: its game orders first, then its premoves. Updates the
    stored orders (a premove played or dropped is gone). True if an action was applied."""
    row = SeatOrders.objects.select_for_update().filter(seat=seat).first()
    if row is None or not row.orders:
        store(seat, [])  # the flag was stale
        return False
    game_orders = [o for o in row.orders if o.get("kind") != PREMOVE]
    premoves = [o for o in row.orders if o.get("kind") == PREMOVE]
    if game_orders:
        action = plugin.ordered_action(match.state, seat.seat, game_orders)
        if action is not None:
            _mark_answered(match, seat)
            try:
                apply(match, seat.seat, action, seats=seats)
                return True
            except (IllegalMove, NotYourTurn):  # the game's own bug: leave the decision to the person
                logger.exception("ordered action of %s in match %s was refused", plugin.meta.slug, match.pk)
    if not premoves or not plugin.premove_due(match.state, seat.seat):
        return False  # queued moves wait for the seat's own turn (the game says when)
    _mark_answered(match, seat)
    dropped = []
    played = None
    for i, order in enumerate(premoves):
        try:
            apply(match, seat.seat, order["action"], seats=seats)
        except (IllegalMove, NotYourTurn):
            dropped.append(order)
            continue
        played = i
        break
    if played is None and not dropped:
        return False
    rest = premoves[played + 1:] if played is not None else []
    store(seat, game_orders + rest, dropped=list(row.dropped) + [
        {"action": o["action"], "version": match.version} for o in dropped] if dropped else None)
    if dropped:
        _tell_dropped(match, seat, len(dropped))
    return played is not None


def _mark_answered(match: Match, seat: Seat) -> None:
    """The change that handed ``seat`` its decision tells its follow-up that orders answer it in
    the same transaction (the hints dict is read after the commit): the clock still starts and
    stops, but nobody is sent "your turn" for a decision already taken."""
    hints = getattr(match, "change_hints", None)
    if hints is not None and seat.user_id and seat.user_id not in hints.setdefault("answered", []):
        hints["answered"].append(seat.user_id)


def _tell_dropped(match: Match, seat: Seat, count: int) -> None:
    """The owner (only) hears that queued moves were dropped; after the commit, like every
    notification."""
    if not seat.user_id:
        return
    match_id, user_id, version, game, number = match.pk, seat.user_id, match.version, match.game, seat.seat
    transaction.on_commit(lambda: signals.premoves_dropped.send(
        sender=Match, match_id=match_id, seat=number, user_id=user_id, game=game, count=count, version=version))
