"""The table's orders panel (matches/orders.py): the seat's queued moves with a cancel button
each, the premoves dropped since it last looked, "Queue a move" (the board's own move forms for
the moves the game offers in advance, ``Plugin.premove_actions``) and one small form per
game-declared order kind, generated from its JSON schema (``enum`` → a choice, ``const`` →
fixed), so a game's orders appear without platform code for it. Only for the seat's own eyes."""
from __future__ import annotations

import json

from django.urls import reverse
from django.utils.translation import gettext as _

from frontend.templatetags.platform_tags import action_label
from games.base import Plugin
from matches import orders as match_orders
from matches.models import SeatOrders


def can_queue(plugin: Plugin) -> bool:
    """The game can tell a waiting seat's next moves (it overrides ``premove_actions``)."""
    return type(plugin).premove_actions is not Plugin.premove_actions


def context(match, seat, plugin: Plugin, lang: str, *, waiting: bool, queue_requested: bool) -> dict:
    """What the panel shows to ``seat`` (a seated, playing viewer); one query (its orders)."""
    row = SeatOrders.objects.filter(seat=seat).first()
    current = list(row.orders) if row else []
    queued = [{"index": i, "action": o["action"], "text": _text(plugin, o["action"], lang, match.state, seat.seat),
               "action_json": json.dumps(o["action"], sort_keys=True)}
              for i, o in enumerate(current) if o.get("kind") == match_orders.PREMOVE]
    game_orders = {o.get("kind"): o for o in current if o.get("kind") != match_orders.PREMOVE}
    premove_legal = plugin.premove_actions(match.state, seat.seat) if waiting and queue_requested else []
    forms = [_form(kind, game_orders.get(kind.kind), lang) for kind in plugin.order_kinds()]
    return {
        "orders_panel": True,
        "queue_game": can_queue(plugin),  # the bar keeps "Queue a move" (disabled on the seat's turn)
        "orders_count": len(queued) + sum(1 for f in forms if f["active"]),
        "queued": queued,
        "dropped": [{**d, "text": _text(plugin, d.get("action"), lang, match.state, seat.seat)}
                    for d in (row.dropped if row else [])],
        "can_queue": waiting and can_queue(plugin),
        "queue_mode": bool(premove_legal),
        "queue_empty": waiting and queue_requested and not premove_legal,
        "premove_legal": premove_legal,
        "queue_url": reverse("match-orders-queue", args=[match.pk]),
        "order_forms": forms,
    }


def _text(plugin: Plugin, action, lang: str, state, seat: int) -> str:
    return (plugin.premove_text(state, seat, action, lang) if isinstance(action, dict) else None) or action_label(action)


def _form(kind, current: dict | None, lang: str) -> dict:
    """One game kind as fields: each property but ``kind``; ``enum`` → a select (with an empty
    choice unless required), ``const`` → hidden. Other property types are not offered here (the
    API takes them)."""
    schema = kind.schema or {}
    required = set(schema.get("required") or [])
    fields = []
    for name, prop in (schema.get("properties") or {}).items():
        if name == "kind" or not isinstance(prop, dict):
            continue
        value = (current or {}).get(name)
        if "const" in prop:
            fields.append({"name": name, "const": prop["const"]})
        elif isinstance(prop.get("enum"), list):
            fields.append({"name": name,
                           "label": kind.label(name, lang) or prop.get("title") or name.replace("_", " "),
                           "choices": [(str(v), kind.label(f"{name}.{v}", lang) or str(v)) for v in prop["enum"]],
                           "required": name in required, "value": "" if value is None else str(value)})
    # a kind with nothing to choose (every field fixed) is a switch: on (set) or off (removed)
    return {"kind": kind.kind, "text": kind.text_de if lang == "de" else kind.text_en, "fields": fields,
            "active": current is not None, "switch": not any(f.get("choices") for f in fields)}


def order_from_form(plugin: Plugin, data: dict) -> tuple[str, dict | None]:
    """(kind, the order the form sets, or None to remove that kind's order). Values as the
    schema lists them (a number in an enum stays a number); empty choices are left out."""
    kind = next((k for k in plugin.order_kinds() if k.kind == data.get("kind")), None)
    if kind is None:
        raise match_orders.BadOrder(_("This game has no such kind of order."))
    if data.get("remove") or data.get("switch") and not data.get("on"):
        return kind.kind, None  # a switch sent off (an unticked box sends nothing but "switch")
    order = {"kind": kind.kind}
    for name, prop in ((kind.schema or {}).get("properties") or {}).items():
        if name == "kind" or not isinstance(prop, dict):
            continue
        if "const" in prop:
            order[name] = prop["const"]
        elif isinstance(prop.get("enum"), list) and data.get(name):
            order[name] = next((v for v in prop["enum"] if str(v) == data[name]), data[name])
    return kind.kind, order
