"""Orders: decisions a seat leaves in advance (platform.md, "Playing over days" → "Orders").

Two sorts, stored together per seat in ``SeatOrders`` (``Seat.has_orders`` mirrors "has any",
so the move path, which reads the seats anyway, knows without a query whether to look):
- ``{"kind": "premove", "action": {...}}``, every game's: when the seat is to move, the first
  premove whose action is legal then is played as the seat's own action; the illegal ones before
  it are dropped (all of them if none is legal) and the owner is told (``premove_dropped``).
- the game's own kinds (``Plugin.order_kinds``; Der Orden's ``reactions``, ``payment``): standing
  policies, asked first through ``Plugin.ordered_action``.
``orders_follow.follow`` is asked after every change that handed a seat its decision
(``services._refresh`` and the other writers call it); this module holds the entry points. Orders are private, and so is the fact that a seat holds them:
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

import json
import logging

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from games.base import BadOptions, OrderKind, Plugin

from . import services
from .errors import IllegalMove, MatchOver, NotSeated, NotYourTurn
from .models import Match, Seat, SeatOrders
from .orders_follow import PREMOVE, delay_bounds, follow, store
from .orders_follow import answer_due as answer_due_with

logger = logging.getLogger(__name__)

MAX_ORDERS = 20  # a seat's orders at once
MAX_ORDER_CHARS = 4000  # one order as JSON

PREMOVE_KIND = OrderKind(
    PREMOVE,
    schema={"type": "object", "required": ["kind", "action"], "additionalProperties": False,
            "properties": {"kind": {"const": PREMOVE}, "action": {"type": "object"}}},
    text_en="Play this move as soon as it is my turn, if it is still legal then (otherwise it is dropped "
            "and I am told).",
    text_de="Diesen Zug spielen, sobald ich am Zug bin, falls er dann noch erlaubt ist (sonst entfällt er "
            "und ich erfahre es).")

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
    # services words "not your match" in one place (for a private match: "no such match")
    return services._seat_of(match, user, seats)


def get(match_id: int, user) -> dict:
    """The requesting seat's orders and the premoves dropped since it last changed them."""
    match = Match.objects.filter(pk=match_id).only("id", "public").first()
    if match is None:
        raise NotSeated(services._no_such_match())
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
        store(seat, cleaned, dropped=[])
        follow(match, plugin, seats, services._apply)
        row = SeatOrders.objects.filter(seat=seat).first()
    return {"orders": list(row.orders) if row else [], "dropped": list(row.dropped) if row else []}


def of_user(user) -> list[dict]:
    """Every order the person holds now, per match (the privacy export)."""
    return [{"match": match_id, "seat": seat, "orders": list(orders)}
            for match_id, seat, orders in SeatOrders.objects.filter(user=user).exclude(orders=[])
            .order_by("seat__match_id").values_list("seat__match_id", "seat__seat", "orders")]


# --- answering late ------------------------------------------------------------------------------
def answer_due(match_id: int, version: int | None = None) -> int:
    """Let the orders of seats to move answer now (see ``orders_follow.answer_due``); 0 or 1 actions."""
    return answer_due_with(match_id, version, services._apply)


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
