"""Orders: decisions a seat leaves in advance (platform.md, "Playing over days" → "Orders").

Two sorts, stored together per seat in ``SeatOrders`` (``Seat.has_orders`` mirrors "has any",
so the move path, which reads the seats anyway, knows without a query whether to look):
- ``{"kind": "premove", "action": {...}}``, every game's: when the seat is to move, the first
  premove whose action is legal then is played as the seat's own action; the illegal ones before
  it are dropped (all of them if none is legal) and the owner is told (``premove_dropped``).
- the game's own kinds (``Plugin.order_kinds``; Der Orden's ``reactions``, ``payment``): standing
  policies, asked first through ``Plugin.ordered_action``.
``follow`` is asked after every change that handed a seat its decision (``services._refresh``
and the other writers call it). Orders are private, and so is the fact that a seat holds them:
an answer that came inside the request of the move that opened the decision (a version jump in
the mover's own answer, a log line 5 ms after the move) told every seat that an order, not a
person, had answered. So on a site (``settings.ORDER_ANSWER_DELAY`` = (min, max) seconds, not
0) the answer comes later, from a timer of this process, a random delay drawn uniformly from
that range after the decision opened; the clock sweep plays any whose timer was lost (a
restart). The mover's request does the same work whether or not anyone holds orders (the flag
is on the seat rows it reads anyway; starting the timer happens after its commit and costs no
query). What others can still infer is written in docs/security.md ("What orders reveal").
With (0, 0) the answer comes in the same transaction (tests, ``bench/run.py days``). Nothing
here writes anything another seat can read but the ordinary log entry of the action an order
takes.
"""
from __future__ import annotations

import contextvars
import json
import logging
import random
import threading

from django.apps import apps
from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from games.base import BadOptions, OrderKind, Plugin

from .errors import IllegalMove, MatchOver, NotYourTurn
from .models import Match, Seat, SeatOrders

logger = logging.getLogger(__name__)

PREMOVE = "premove"
MAX_ORDERS = 20  # a seat's orders at once
MAX_ORDER_CHARS = 4000  # one order as JSON
FOLLOW_LIMIT = 100  # ordered actions one change may set off (a game of standing orders must end)
MAX_DROPPED_SHOWN = 10

PREMOVE_KIND = OrderKind(
    PREMOVE,
    schema={"type": "object", "required": ["kind", "action"], "additionalProperties": False,
            "properties": {"kind": {"const": PREMOVE}, "action": {"type": "object"}}},
    text_en="Play this move as soon as it is my turn, if it is still legal then (otherwise it is dropped "
            "and I am told).",
    text_de="Diesen Zug spielen, sobald ich am Zug bin, falls er dann noch erlaubt ist (sonst entfällt er "
            "und ich erfahre es).")

_following = contextvars.ContextVar("orders_following", default=False)


class BadOrder(IllegalMove):
    code = "bad_order"


def kinds(plugin: Plugin) -> dict:
    """``GET /api/games/``'s ``orders``: kind → {schema, text: {en, de}}, ``premove`` first."""
    return {PREMOVE: PREMOVE_KIND.as_json(), **{k.kind: k.as_json() for k in plugin.order_kinds()}}


def _lang_de() -> bool:
    return (translation.get_language() or "").startswith("de")


def clean(plugin: Plugin, orders) -> list[dict]:
    """The orders as stored; raises BadOrder (400) with the reason in the active language."""
    if not isinstance(orders, list):
        raise BadOrder(_("'orders' must be a list of order objects."))
    if len(orders) > MAX_ORDERS:
        raise BadOrder(_("At most %(n)d orders at once.") % {"n": MAX_ORDERS})
    cleaned = []
    for order in orders:
        if not isinstance(order, dict) or not isinstance(order.get("kind"), str):
            raise BadOrder(_("Every order is an object with a 'kind'."))
        if len(json.dumps(order)) > MAX_ORDER_CHARS:
            raise BadOrder(_("An order is too long."))
        if order["kind"] == PREMOVE:
            if set(order) != {"kind", "action"} or not isinstance(order["action"], dict) or not order["action"]:
                raise BadOrder(_('A premove is {"kind": "premove", "action": {...}} with the action as a JSON object.'))
            cleaned.append({"kind": PREMOVE, "action": order["action"]})
            continue
        try:
            cleaned.append(plugin.clean_order(order))
        except BadOptions as exc:
            raise BadOrder(exc.text(translation.get_language() or "en")) from None
    return cleaned


# --- reading and replacing a seat's own orders ------------------------------------------------------
def _own_seat(match: Match, user, seats=None) -> Seat:
    from .services import _seat_of  # the one place that words "not your match" (private: "no such")

    return _seat_of(match, user, seats)


def get(match_id: int, user) -> dict:
    """The requesting seat's orders and the premoves dropped since it last changed them."""
    from .services import _no_such_match
    from .errors import NotSeated

    match = Match.objects.filter(pk=match_id).only("id", "public").first()
    if match is None:
        raise NotSeated(_no_such_match())
    seat = _own_seat(match, user)
    row = SeatOrders.objects.filter(seat=seat).first()
    return {"orders": list(row.orders) if row else [], "dropped": list(row.dropped) if row else []}


def put(match_id: int, user, orders) -> dict:
    """Replace the requesting seat's orders (the API's PUT)."""
    return change(match_id, user, lambda current: orders)


def change(match_id: int, user, edit) -> dict:
    """Replace the requesting seat's orders by ``edit(current orders)``, cleaned, under the
    match's lock (the one writer). Orders that are due now (the seat is to move) are followed at
    once, as after any change. Clears the notice of dropped premoves (the player has seen it)."""
    from . import services

    with transaction.atomic():
        match = services._locked(match_id)
        seats = list(Seat.objects.filter(match_id=match.pk))
        seat = _own_seat(match, user, seats)
        if match.status != Match.Status.ACTIVE:
            raise MatchOver(_("This match is over."))
        if seat.resigned:
            raise NotYourTurn(_("You have left this match."))
        plugin = services.plugin_for(match)
        row = SeatOrders.objects.filter(seat=seat).first()
        cleaned = clean(plugin, edit(list(row.orders) if row else []))
        _store(seat, cleaned, dropped=[])
        follow(match, plugin, seats)
        row = SeatOrders.objects.filter(seat=seat).first()
    return {"orders": list(row.orders) if row else [], "dropped": list(row.dropped) if row else []}


def _store(seat: Seat, orders: list[dict], dropped: list | None = None) -> None:
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
    if had and leaver_id and apps.is_installed("notifications"):
        match_id, game, count = match.pk, match.game, len(row.orders)

        def send():
            from django.contrib.auth import get_user_model
            from notifications.services import match_context, notify

            user = get_user_model().objects.filter(pk=leaver_id).first()
            if user is not None:
                notify(user, "orders_ended", {**match_context(match_id, leaver_id, game=game), "count": count},
                       key=f"orders_ended:{match_id}:{seat.seat}:{match.version}", match_id=match_id)

        transaction.on_commit(send)


def of_user(user) -> list[dict]:
    """Every order the person holds now, per match (the privacy export)."""
    return [{"match": match_id, "seat": seat, "orders": list(orders)}
            for match_id, seat, orders in SeatOrders.objects.filter(user=user).exclude(orders=[])
            .order_by("seat__match_id").values_list("seat__match_id", "seat__seat", "orders")]


# --- following them ------------------------------------------------------------------------------
def due(match: Match, seats) -> bool:
    """Whether some seat to move holds orders: no query (the flag is on the seat rows)."""
    return match.status == Match.Status.ACTIVE and any(
        s.has_orders and s.seat in match.to_move and not s.bot and not s.resigned for s in seats)


def follow(match: Match, plugin: Plugin, seats: list[Seat] | None) -> int:
    """Inside the writer's transaction, after a change: while a seat to move holds orders that
    take an action now, apply it (an ordinary log entry, through ``services._apply``). Returns
    how many actions the orders took. Re-entered from that ``_apply`` it does nothing: the
    outer loop goes on."""
    if _following.get() or seats is None or not due(match, seats):
        return 0
    if delay_bounds()[1] > 0:
        _later(match)
        return 0
    from . import services

    token = _following.set(True)
    taken = 0
    try:
        while taken < FOLLOW_LIMIT and due(match, seats):
            for seat in sorted(seats, key=lambda s: s.seat):
                if seat.has_orders and seat.seat in match.to_move and not seat.bot and not seat.resigned:
                    if _take(match, plugin, seat, seats, services):
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


def _later(match: Match) -> None:
    """After the commit, start the timer that lets the orders answer (``answer_due``)."""
    match_id, version = match.pk, match.version
    lo, hi = delay_bounds()
    delay = _rng.uniform(lo, hi)

    def start():
        timer = threading.Timer(delay, _answer_in_thread, (match_id, version))
        timer.daemon = True
        timer.start()

    transaction.on_commit(start)


def _answer_in_thread(match_id: int, version: int) -> None:
    from django.db import close_old_connections, connection

    try:
        answer_due(match_id, version)
    except Exception:  # a lost answer is played by the clock sweep (answer_overdue)
        logger.exception("ordered answer for match %s v%s failed", match_id, version)
    finally:
        close_old_connections()
        connection.close()


def answer_due(match_id: int, version: int | None = None) -> int:
    """Let the orders of seats to move answer now (one action; the next decision it opens is
    timed again). ``version``: the version the timer was started at; a match that changed
    since has started its own timer. Returns how many actions were taken (0 or 1)."""
    from . import services

    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or (version is not None and match.version != version):
            return 0
        seats = list(Seat.objects.filter(match_id=match.pk))
        if not due(match, seats):
            return 0
        plugin = services.plugin_for(match)
        token = _following.set(True)
        try:
            taken = 0
            for seat in sorted(seats, key=lambda s: s.seat):
                if seat.has_orders and seat.seat in match.to_move and not seat.bot and not seat.resigned:
                    if _take(match, plugin, seat, seats, services):
                        taken = 1
                        break
        finally:
            _following.reset(token)
        if taken and due(match, seats):
            _later(match)  # the decision this answer opened is timed like any other
        return taken


def answer_overdue(now=None, limit: int = 200) -> int:
    """The clock sweep: orders whose timer was lost (a restart) answer once their longest delay
    has passed. Returns how many actions they took."""
    from datetime import timedelta

    from django.utils import timezone

    lo, hi = delay_bounds()
    if hi <= 0:
        return 0
    now = now or timezone.now()
    overdue = (Seat.objects.filter(has_orders=True, to_move=True, bot="", resigned=False,
                                   match__status=Match.Status.ACTIVE,
                                   to_move_since__lte=now - timedelta(seconds=hi + 60))
               .values_list("match_id", flat=True).distinct()[:limit])
    return sum(answer_due(match_id) for match_id in list(overdue))


def _take(match: Match, plugin: Plugin, seat: Seat, seats: list[Seat], services) -> bool:
    """Let ``seat``'s orders act once: its game orders first, then its premoves. Updates the
    stored orders (a premove played or dropped is gone). True if an action was applied."""
    row = SeatOrders.objects.select_for_update().filter(seat=seat).first()
    if row is None or not row.orders:
        _store(seat, [])  # the flag was stale
        return False
    game_orders = [o for o in row.orders if o.get("kind") != PREMOVE]
    premoves = [o for o in row.orders if o.get("kind") == PREMOVE]
    if game_orders:
        action = plugin.ordered_action(match.state, seat.seat, game_orders)
        if action is not None:
            _mark_answered(match, seat)
            try:
                services._apply(match, seat.seat, action, seats=seats)
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
            services._apply(match, seat.seat, order["action"], seats=seats)
        except (IllegalMove, NotYourTurn):
            dropped.append(order)
            continue
        played = i
        break
    if played is None and not dropped:
        return False
    rest = premoves[played + 1:] if played is not None else []
    _store(seat, game_orders + rest, dropped=list(row.dropped) + [
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
    if not seat.user_id or not apps.is_installed("notifications"):
        return
    match_id, user_id, version, game = match.pk, seat.user_id, match.version, match.game

    def send():
        from django.contrib.auth import get_user_model
        from notifications.services import match_context, notify

        user = get_user_model().objects.filter(pk=user_id).first()
        if user is None:
            return
        context = {**match_context(match_id, user_id, game=game), "count": count}
        notify(user, "premove_dropped", context, key=f"premove_dropped:{match_id}:{seat.seat}:{version}",
               match_id=match_id)

    transaction.on_commit(send)
