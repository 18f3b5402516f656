"""Board context for the table page: everything the template shows, pre-computed (the
template uses only Django's built-in tags). Pure Python."""
from __future__ import annotations

import dataclasses
import json
from functools import lru_cache
from html import escape

from games.orden import rules as R
from games.orden.text import (PROP_NAMES, SOURCE, TO, WAPPEN_NAMES, ability as ability_text, card_text, cost as cost_text,
                              delivery_line, rule_body, type_name)

T = {
    "de": {"you": "Du", "player": "Spieler", "rank": "Rang", "no_rank": "kein Rang", "pfad": "Pfad",
           "auslage": "Auslage", "ablage": "Ablage", "aussen": "Außenwelt", "deck": "Nachziehstapel",
           "hand": "Hand", "my_hand": "Meine Hand", "limits": "Limits", "play": "Ausspielen",
           "actions": "Aktionen", "hand_limit": "Handlimit", "to_move": "am Zug", "round": "Runde",
           "rounds_left": "Runden übrig", "end_turn": "Zug beenden", "decline": "Nicht reagieren",
           "orders_react": "Reaktionsfenster künftig für mich beantworten:", "order_never": "nie reagieren",
           "order_prevent": "Aufstiege ab RANG VII verhindern", "order_ask": "mich fragen",
           "order_pay": "Künftig automatisch bezahlen (die billigsten passenden Karten)",
           "orders_saved": "Gespeichert.", "orders_failed": "Konnte nicht gespeichert werden.",
           "react_prompt": "Reaktion möglich",
           "announced": "angekündigt", "deadline": "Frist", "hours": "Stunden", "pay": "Bezahlen mit",
           "pay_prompt": "Wähle Karten zum Bezahlen", "choose_prompt": "Wähle eine Karte",
           "discard_prompt": "Lege Karten bis zum Handlimit ab", "discard": "Ablegen", "rule": "Regel",
           "use": "Anwenden", "react": "Reagieren", "finished": "Spiel beendet", "place": "Platz",
           "points": "Punkte", "known": "bekannt", "waiting": "Warte auf", "cards": "Karten",
           "play_card": "Ausspielen", "use_card": "Anwenden", "react_with": "Reagieren mit",
           "pay_with": "Bezahlen mit", "discard_card": "Ablegen", "choose_card": "Wählen",
           "react_help": "Eine Reaktion kann die Aktion verhindern; dann geschieht nichts davon, sie zählt aber zum Aktionslimit.",
           "pay_for": "Bezahlen für", "owed": "Verlangt", "chosen": "Schon gewählt", "none": "noch nichts",
           "pay_help": "Der erste Knopf bezahlt mit einem Klick mit den billigsten passenden Karten; oder klicke Karten einzeln an, bis die Kosten gedeckt sind.",
           "choose_help": "Die gewählte Karte wird allen gezeigt.",
           "end_turn_help": "Danach ziehst oder legst du ab, bis du dein Handlimit hältst.",
           "rules": "Regeln", "your_move": "Dein Zug",
           "plays_left": "Ausspielen übrig", "actions_left": "Aktionen übrig", "plays_short": "Ausspielen", "actions_short": "Aktionen", "move": "Zug", "from": "aus:",
           "waiting_for": "Am Zug:", "card_rules": "Regeltext", "kinds": {"aktion": "Aktion", "reaktion": "Reaktion", "effekt": "Effekt"},
           "cost": "Kosten", "delivers": "Liefert",
           "why_not_turn": "Du bist nicht am Zug.", "why_no_plays": "Kein Ausspielen mehr in diesem Zug.",
           "why_not_now": "Jetzt nicht spielbar (Bedingung, RANG oder Kosten nicht erfüllt).",
           "why_decide": "Erst die offene Entscheidung oben treffen.", "why_end_turn": "Erst die offene Entscheidung oben treffen.",
           "why_no_actions": "Keine Aktion mehr in diesem Zug.",
           "why_not_usable": "Jetzt nicht nutzbar (Bedingung, Kosten oder schon genutzt).",
           "why_window": "Warte auf eine Reaktion auf {card}.",
           "standstill_end": "Stillstand: Niemand konnte mehr aufsteigen, und niemand konnte noch jemanden absteigen "
                             "lassen – kein Platz konnte sich mehr ändern. Darum endet das Spiel hier, und die "
                             "erreichten Ränge entscheiden (wie nach einer festen Rundenzahl). Das ist eine Regel "
                             "dieser Seite; das gedruckte Regelheft kennt sie nicht, dort liefe so ein Spiel endlos.",
           "house_rules": "Wo diese Seite vom gedruckten Regelheft abweicht",
           "pay_cheapest": "Bezahlen mit", "pay_cheapest_note": "die billigsten passenden Karten",
           "pay_or": "oder selbst wählen, Karte für Karte:"},
    "en": {"you": "you", "player": "Player", "rank": "Rank", "no_rank": "no rank", "pfad": "Path",
           "auslage": "Display", "ablage": "Discard pile", "aussen": "Outside world", "deck": "Draw pile",
           "hand": "Hand", "my_hand": "My hand", "limits": "Limits", "play": "Plays",
           "actions": "Actions", "hand_limit": "Hand limit", "to_move": "to move", "round": "Round",
           "rounds_left": "rounds left", "end_turn": "End turn", "decline": "Do not react",
           "orders_react": "Answer windows for me from now on:", "order_never": "never react",
           "order_prevent": "prevent ascents from RANK VII", "order_ask": "ask me",
           "order_pay": "Pay automatically from now on (the cheapest covering cards)",
           "orders_saved": "Saved.", "orders_failed": "Could not be saved.",
           "react_prompt": "You may react",
           "announced": "announced", "deadline": "deadline", "hours": "hours", "pay": "Pay with",
           "pay_prompt": "Choose cards to pay", "choose_prompt": "Choose a card",
           "discard_prompt": "Discard down to your hand limit", "discard": "Discard", "rule": "Rule",
           "use": "Use", "react": "React", "finished": "Game over", "place": "Place",
           "points": "Points", "known": "known", "waiting": "Waiting for", "cards": "cards",
           "play_card": "Play", "use_card": "Use", "react_with": "React with",
           "pay_with": "Pay with", "discard_card": "Discard", "choose_card": "Choose",
           "react_help": "A reaction may prevent the action: then nothing of it happens, but it still counts against the action limit.",
           "pay_for": "Paying for", "owed": "Asked for", "chosen": "Chosen so far", "none": "nothing yet",
           "pay_help": "The first button pays in one click with the cheapest covering cards; or click cards one by one until the cost is covered.",
           "choose_help": "The chosen card is shown to everyone.",
           "end_turn_help": "Then you draw or discard until you hold your hand limit.",
           "rules": "Rules", "your_move": "Your move",
           "plays_left": "Plays left", "actions_left": "Actions left", "plays_short": "Plays", "actions_short": "Actions", "move": "Move", "from": "from:",
           "waiting_for": "To move:", "card_rules": "Rules text", "kinds": {"aktion": "Action", "reaktion": "Reaction", "effekt": "Effect"},
           "cost": "Cost", "delivers": "Delivers",
           "why_not_turn": "It is not your turn.", "why_no_plays": "No plays left this turn.",
           "why_not_now": "Not playable now (a condition, RANK or cost is not met).",
           "why_decide": "First make the open decision above.", "why_end_turn": "First make the open decision above.",
           "why_no_actions": "No actions left this turn.",
           "why_not_usable": "Not usable now (a condition, its cost or used already).",
           "why_window": "Waiting for a reaction to {card}.",
           "standstill_end": "Standstill: nobody could ascend any more, and nobody could still make anyone descend – "
                             "no place could change. So the game ends here and the ranks reached decide (as after a "
                             "fixed number of rounds). This is a rule of this site; the printed rules do not have it, "
                             "and there such a game would never end.",
           "house_rules": "Where this site differs from the printed rules",
           "pay_cheapest": "Pay with", "pay_cheapest_note": "the cheapest covering cards",
           "pay_or": "or choose yourself, card by card:"},
}
WAPPEN_COLOURS = {"orden": "#6b6b6b", "schwert": "#b22222", "hammer": "#8b5a2b", "buch": "#1f4e9c",
                  "meisterschaft": "#7d3c98", "burgherren": "#2e7d32", "grossmeister": "#c9a227",
                  "seligkeit": "#e0b400"}


def _lang(lang):
    return "de" if str(lang).startswith("de") else "en"


def card_view(no, iid, lang, actions=(), last=False) -> dict:
    return {**_card_face(R.C[no], lang), "id": iid, "actions": list(actions), "last": last}


class _Html(str):
    """Markup built here, already escaped: templates print it as it is (the ``__html__``
    protocol Django's autoescaping honours), without this module importing Django."""
    __slots__ = ()

    def __html__(self):
        return self


def _p(value) -> str:
    """A value as the template's ``{{ value }}`` prints it (escaped)."""
    return "None" if value is None else escape(str(value))


def _prop_html(p: dict, title: str, conditional: bool) -> str:
    letter = p["letter"]
    return (f'<span class="ord-prop ord-prop-{"any" if letter == "?" else _p(letter)}'
            f'{" is-conditional" if conditional else ""}" title="{_p(p["n"])}x {_p(title)}">'
            f'{_p(p["n"]) if p["n"] > 1 else ""}{_p(letter)}</span>')


_KIND_ICON = {"aktion": '<path d="M3 1.5v9l7-4.5z"/>',
              "reaktion": '<path d="M6 1l4.5 1.6v3.2C10.5 8.6 8.5 10.4 6 11 3.5 10.4 1.5 8.6 1.5 5.8V2.6z"/>'}
_OTHER_ICON = '<circle cx="6" cy="6" r="4.2" fill="none" stroke-width="2.2"/>'


@lru_cache(maxsize=2048)
def _card_body(no, lang) -> str:
    """orden/card.html from its top row to its pop-up, built once per card and language: the
    board shows dozens of cards, and the template's loops over their rules and costs were most
    of its render time. Must print what card.html prints (tests/games/orden_web compare them)."""
    c = _card_face(R.C[no], lang)
    if c["kind"] == "rank":
        corner = "–" if c["rank"] == "0" else _p(c["rank"])
    else:
        corner = "".join(_prop_html(p, p["letter"], p["conditional"]) for p in c["props"])
    icons = ""
    if c["type_label"] or c["gate"]:
        icons = ('<div class="ord-icons">'
                 + (f'<span class="ord-type">{_p(c["type_label"])}</span>' if c["type_label"] else "")
                 + (f'<span class="ord-gate" title="{_p(c["gate"])}+">{_p(c["gate"])}+</span>' if c["gate"] else "")
                 + "</div>")
    abilities = ""
    if c["abilities"]:
        items = []
        for a in c["abilities"]:
            costs = []
            for k in a["costs"]:
                if k["self"]:
                    mark = ('<path d="M4 4l4 4M8 4l-4 4" fill="none" stroke-width="1.6"/>' if k["self"] == "remove"
                            else '<path d="M6 3.5v5M4 6.5l2 2 2-2" fill="none" stroke-width="1.4"/>')
                    inner = (f'<svg class="ord-k" viewBox="0 0 12 12" role="img" aria-label="{_p(k["text"])}">'
                             f'<rect x="2.5" y="1" width="7" height="10" rx="1.2" fill="none" stroke-width="1.6"/>'
                             f'{mark}</svg>')
                else:
                    inner = "−" + ("".join(_prop_html(p, p["name"], False) for p in k["props"])
                                   or f'<span class="ord-cost-text">{_p(k["text"])}</span>')
                costs.append(f'<span class="ord-cost">{inner}</span>')
            items.append(f'<li class="ord-ab ord-ab-{_p(a["kind"])}" title="{_p(a["text"])}"><span class="ord-ab-icons">'
                         f'<svg class="ord-k" viewBox="0 0 12 12" role="img" aria-label="{_p(a["kind_label"])}">'
                         f'{_KIND_ICON.get(a["kind"], _OTHER_ICON)}</svg>{"".join(costs)}</span> '
                         f'<span class="ord-rule">{_p(a["short"])}</span></li>')
        abilities = f'<ul class="ord-abilities">{"".join(items)}</ul>'
    corner_title = ' title="%s"' % _p(c["delivery"]) if c["prop_title"] else ""
    flavor = '<p class="ord-flavor"><em>%s</em></p>' % _p(c["flavor"]) if c["flavor"] else ""
    text = "".join("<p>%s</p>" % _p(line) for line in c["text"])
    return ('  <div class="ord-card-top">\n'
            f'    <span class="ord-wappen" role="img" title="{_p(c["wappen_label"])}" aria-label="{_p(c["wappen_label"])}"></span>\n'
            f'    <strong class="ord-name">{_p(c["name"])}</strong>\n'
            f'    <span class="ord-corner"{corner_title}>{corner}</span>\n'
            '  </div>\n'
            f'  {icons}\n'
            f'  {abilities}\n'
            f'  <div class="ord-pop" role="tooltip"><strong>{_p(c["name"])}</strong><div class="ord-text">'
            f'{text}</div>{flavor}</div>\n')


def card_html(c: dict, lang: str) -> _Html | None:
    """A card without move buttons as ``{% include "orden/card.html" %}`` prints it (None for a
    card with buttons: those need the request's CSRF token, the template prints them)."""
    if c["actions"]:
        return None
    why = c.get("why")
    off = ""
    if why:
        label = c.get("off_label") or T[lang]["play_card"]
        off = (f'<div class="ord-actions ord-off"><button type="button" disabled title="{_p(why)}">{_p(label)}</button>'
               f' <small class="ord-why visually-hidden">{_p(why)}</small></div>')
    last = " is-last" if c["last"] else ""
    iid = "" if c["id"] is None else f' data-id="{_p(c["id"])}"'
    return _Html(f'\n<div class="ord-card ord-{_p(c["kind"])}{last}" data-no="{_p(c["no"])}"{iid}'
                 f' style="--wappen:{_p(c["colour"])};--rows:{_p(c["rows"] or 1)}" tabindex="0">\n'
                 f'{_card_body(c["no"], lang)}  {off}\n</div>\n')


@lru_cache(maxsize=4096)
def _card_face(c, lang) -> dict:
    """What is printed on a card: the same for every copy, so worked out once per card and
    language (the page shows dozens of cards; their texts are generated from the data).
    Read-only: callers copy it."""
    de = lang == "de"
    props = []
    for d in c.liefert:
        for p, n in d.props:
            props.append({"letter": p, "n": n, "conditional": bool(d.conditions)})
    kinds = T["de" if de else "en"]["kinds"]
    abilities = tuple({
        "kind": a.kind, "kind_label": kinds[a.kind], "text": ability_text(a, lang), "short": _short_rule(a, lang),
        "costs": tuple({"self": c2.verb if c2.what == "self" else "",
                        "props": tuple({"letter": p, "n": n, "name": PROP_NAMES["de" if de else "en"].get(p, p)}
                                       for p, n in c2.props),
                        "text": cost_text(c2, lang)} for c2 in a.costs),
    } for a in c.abilities)
    return {
        "abilities": abilities, "delivery": delivery_line(c, lang), "rules_label": T["de" if de else "en"]["card_rules"],
        "type_label": (type_name(c.type, lang) + (f" {c.level}" if c.level else "")) if c.type else "",
        "prop_title": ", ".join(f"{n}x {PROP_NAMES['de' if de else 'en'].get(p, p)}" for d in c.liefert for p, n in d.props),
        "no": c.no, "name": c.name.de if de else c.name.en, "kind": c.kind,
        "rows": max(1, sum(1 for a in c.abilities if a.kind == "aktion" or (a.kind == "effekt" and a.once_per_turn))),
        "rank": c.rank, "gate": c.rank_gate, "type": c.type, "level": c.level,
        "wappen": c.wappen, "wappen_label": WAPPEN_NAMES[c.wappen][0 if de else 1] if c.wappen else "",
        "colour": WAPPEN_COLOURS.get(c.wappen, "#888"), "props": tuple(props),
        "text": tuple(card_text(c, lang)), "flavor": c.flavor.de if de else c.flavor.en,
    }


def _short_rule(a, lang) -> str:
    """A rule as printed small on the card, beside its kind and cost icons: its text without the
    kind word and, where the cost is a separate clause, without the cost (the icons say both; the
    whole sentence is the icon's title and in the card's pop-up). A reaction keeps its trigger."""
    plain = a if a.once_per_turn or not a.costs else dataclasses.replace(a, costs=())
    text = ability_text(plain, lang)
    head, sep, rest = text.partition(": ")
    if not sep:
        return text
    if "(" in head and head.endswith(")"):  # "Reaktion (wenn …)": the trigger leads
        trigger = head[head.index("(") + 1:-1]
        return f"{trigger[:1].upper()}{trigger[1:]}: {rest}"
    return rest


# Wählen: a card in the Ablage and in the Nachziehstapel is one choice — either way it comes to the same
# place, and the pile keeps no other meaning for the rule — so the table asks no pile question: the Ablage's
# copy is taken (nothing hidden is searched, no shuffle; the other copy stays to be drawn). The Auslage or
# the hand is a different choice (a card in play or in hand is given up) and keeps its own button.
PILES = ("ablage", "deck")


def _button(action, label, detail="", short="", named="") -> dict:
    """``short``: the label on the card itself (the card names itself); ``named``: the card's name,
    said after ``short`` to screen readers only, so the button's name is short + card + rule (the
    visible label stays part of the name: speech control users say what they see)."""
    return {"label": label, "detail": detail, "short": short or label, "named": named,
            "json": json.dumps(action, separators=(",", ":"))}


@lru_cache(maxsize=4096)
def _name(no, lang) -> str:
    c = R.C[no]
    return f"„{c.name.de}“" if lang == "de" else f"“{c.name.en}”"


@lru_cache(maxsize=4096)
def _rule(no, ai, lang) -> str:
    abilities = R.C[no].abilities
    return rule_body(abilities[ai], lang) if 0 <= ai < len(abilities) else ""


def _extra(action, lang) -> str:
    """Fields an action carries beyond type, card and ability (e.g. a zone to choose from),
    worded where the game has a word for them: new engine options show up without code here."""
    i = 0 if lang == "de" else 1
    parts = []
    for k, v in action.items():
        if k in ("type", "card", "ability"):
            continue
        if isinstance(v, str) and v in SOURCE:
            parts.append(SOURCE[v][i])
        elif isinstance(v, str) and v in TO:
            parts.append(TO[v][i])
        else:
            parts.append(f"{k}: {v}")
    return ", ".join(parts)


def board_context(view: dict, seat, legal: list, lang: str, hl: dict | None = None) -> dict:
    """``hl``: what the last move changed (``highlights``): its cards are marked ``last``."""
    lang = _lang(lang)
    marked = set((hl or {}).get("cards") or ())
    t = T[lang]
    nos = {}  # instance id -> card number, for every card this viewer sees
    for sv in view["seats"]:
        for zone in ("pfad", "auslage", "ablage", "aussen", "known_hand", "hand"):
            for c in sv.get(zone) or []:
                nos[c["id"]] = c["no"]
    by_card: dict = {}
    general, choose, decline, reacts, payments, discards = [], [], [], [], [], []
    for a in legal:
        typ = a["type"]
        no = nos.get(a.get("card")) if typ != "choose" else a.get("card")
        name = _name(no, lang) if no is not None else ""
        if typ == "play":
            by_card.setdefault(a["card"], []).append(_button(a, f"{t['play_card']} {name}", short=t["play_card"],
                                                             named=name))
        elif typ == "activate":
            by_card.setdefault(a["card"], []).append(
                _button(a, f"{t['use_card']} {name}", _rule(no, a.get("ability", 0), lang),
                        short=t["use_card"] + (f" {a.get('ability', 0) + 1}" if no is not None and len(R.C[no].abilities) > 1 else ""),
                        named=name))
        elif typ == "react":
            reacts.append(_button(a, f"{t['react_with']} {name}", _rule(no, a.get("ability", 0), lang)))
        elif typ == "pay" and "cards" in a:  # the cheapest covering set: one click (listed first)
            set_names = " + ".join(_name(nos[i], lang) for i in a["cards"] if i in nos)
            payments.append({**_button(a, f"{t['pay_cheapest']} {set_names}", t["pay_cheapest_note"]), "set": True})
        elif typ == "pay":
            payments.append(_button(a, f"{t['pay_with']} {name}", delivery_line(R.C[no], lang) if no is not None else ""))
        elif typ == "discard":
            discards.append(_button(a, f"{t['discard_card']} {name}"))
        elif typ == "choose":
            if a.get("zone") in PILES and any(b["type"] == "choose" and b["card"] == a["card"] and b.get("zone") in PILES
                                             and PILES.index(b["zone"]) < PILES.index(a["zone"]) for b in legal):
                continue  # the same card in the other pile: one button (same_choice)
            zone = {"deck": t["deck"], "ablage": t["ablage"], "auslage": t["auslage"], "hand": t["hand"]}.get(a.get("zone"))
            choose.append(_button(a, f"{t['choose_card']} {name}", f"{t['from']} {zone}" if zone else _extra(a, lang)))
        elif typ == "decline":
            decline.append(_button(a, t["decline"]))
        elif typ == "end_turn":
            general.append(_button(a, t["end_turn"], t["end_turn_help"]))
        else:  # an action this page does not know yet: still offered, named by its fields
            general.append(_button(a, " ".join(filter(None, [typ.replace("_", " "), name])), _extra(a, lang)))

    def cards(lst, owner):
        return [card_view(c["no"], c["id"], lang, by_card.get(c["id"], ()), f"{owner}:{c['no']}" in marked)
                for c in lst]

    movers = set()
    if view["phase"] != "over":
        if view.get("resolving"):
            movers.add(view["resolving"]["seat"])
        elif view["phase"] == "react" and view.get("pending"):
            movers.add(view["pending"]["asked"])
        else:
            movers.add(view["cur"])
    seats = []
    for sv in view["seats"]:
        top = sv["pfad"][0]["no"]
        o = sv["seat"]
        seats.append({
            "seat": o, "label": f"{t['player']} {o + 1}", "is_me": o == seat,
            "to_move": o in movers, "rank": sv["rank"], "rank_label": t["no_rank"] if sv["rank"] == "0" else sv["rank"],
            "rank_name": card_view(top, None, lang)["name"], "path": sv["path"],
            "pfad": cards(sv["pfad"][:1], o) + [card_view(c["no"], c["id"], lang) for c in sv["pfad"][1:]],
            "auslage": cards(sv["auslage"], o), "ablage_count": len(sv["ablage"]),
            "ablage_top": cards(sv["ablage"][-1:], o), "aussen": cards(sv["aussen"], o),
            "deck_size": sv["deck_size"], "hand_size": sv["hand_size"], "known_hand": cards(sv["known_hand"], o),
            "limits": sv["limits"],
        })
    me = None
    turn = view["turn"]
    my_limits = view["seats"][seat]["limits"] if seat is not None and 0 <= seat < len(view["seats"]) else None
    if seat is not None and 0 <= seat < len(view["seats"]):
        hand = cards(view["seats"][seat].get("hand", []), seat)
        if view["phase"] != "over":  # why a card offers nothing (shown on the card, disabled)
            why = (t["why_not_turn"] if seat not in movers else t["why_decide"] if view["phase"] != "main"
                   else t["why_no_plays"] if my_limits and turn["plays"] >= my_limits["play"] else t["why_not_now"])
            for c in hand:
                c["rows"] = 1  # a hand card offers one move: Play
                if not c["actions"]:
                    c["why"] = why
            # the own Path top and Display: a card that can be used shows "Use" disabled with its
            # reason while it cannot (the card keeps its height: the seats below do not move)
            why_use = (t["why_not_turn"] if seat not in movers else t["why_decide"] if view["phase"] != "main"
                       else t["why_no_actions"] if my_limits and turn["actions"] >= my_limits["actions"]
                       else t["why_not_usable"])
            mine = next(s for s in seats if s["is_me"])
            # the line for the reason is there whenever a card could be used (empty while it can)
            mine["use_line"] = any(_usable(c["no"]) for c in mine["pfad"][:1] + mine["auslage"])
            mine["why_use"] = ""
            for c in mine["pfad"][:1] + mine["auslage"]:
                if not c["actions"] and _usable(c["no"]):
                    c["why"], c["off_label"] = why_use, t["use_card"]
                    mine["why_use"] = why_use  # said once, above the seat's cards
        # why the hand's disabled cards offer nothing: the same for all of them, said once above
        # the hand in a line of its own (a card is too narrow for it beside its button)
        me = {"seat": seat, "hand": hand, "why": next((c["why"] for c in hand if c.get("why")), "")}
    pending = None
    if view.get("pending"):
        pv = view["pending"]
        c = card_view(pv["no"], pv["card"], lang)
        pending = {"seat": pv["seat"], "card": c, "rule": _rule(pv["no"], pv["ability"], lang),
                   "asked": pv["asked"], "hours": pv["deadline_hours"],
                   "mine_to_answer": pv["asked"] == seat and view["phase"] == "react"}
    paying = None
    rv = view.get("resolving")
    if view["phase"] == "pay" and rv and rv["seat"] == seat:
        ability = R.C[rv["no"]].abilities[rv["ability"]]
        paying = {"card": _name(rv["no"], lang), "rule": _rule(rv["no"], rv["ability"], lang),
                  "owed": "; ".join(cost_text(c, lang) for c in ability.costs),
                  "chosen": [_name(nos[i], lang) for i in rv.get("picked") or [] if i in nos]}
    prompt = {"pay": t["pay_prompt"], "choose": t["choose_prompt"], "discard": t["discard_prompt"]}.get(view["phase"], "")
    if prompt and seat not in movers:
        prompt = ""
    result = None
    if view.get("result"):
        result = sorted(view["result"]["placements"], key=lambda p: p["place"])
    end_why = t["standstill_end"] if (view.get("result") or {}).get("end") == "standstill" else ""
    rank_word = t["rank"]
    summaries = [s["rank_label"] if s["rank"] == "0" else f"{rank_word} {s['rank_label']}" for s in seats]
    details = [[s["rank_name"], f"{t['hand']}: {s['hand_size']}", f"{t['deck']}: {s['deck_size']}",
                f"{t['ablage']}: {s['ablage_count']}"] for s in seats]
    limits = my_limits
    left = None
    if limits and view["phase"] == "main" and seat in movers:
        left = {"plays": max(0, limits["play"] - turn["plays"]), "actions": max(0, limits["actions"] - turn["actions"])}
    for s in seats:  # each shown card's markup, but for a card with buttons (board.html includes card.html)
        for c in s["pfad"][:1] + s["auslage"] + s["ablage_top"] + s["aussen"] + s["known_hand"]:
            c["html"] = card_html(c, lang)
    for c in me["hand"] if me else ():
        c["html"] = card_html(c, lang)
    return {"seat_summaries": summaries, "seat_details": details, "ord": {
        "t": t, "lang": lang, "round": view["round"], "rounds_left": view["rounds_left"], "phase": view["phase"],
        "seats": seats, "me": me, "pending": pending, "general": general, "choose": choose, "decline": decline,
        "reacts": reacts, "orders": _order_controls(t, pending, paying), "payments": payments, "discards": discards, "paying": paying,
        "prompt": prompt, "finished": view["phase"] == "over", "result": result, "end_why": end_why, "left": left,
        "turn": view["turn"], "my_turn": seat in movers, "mover": min(movers) if movers else None,
        "limits": limits, "end_turn_off": _end_turn_off(t, view, seat, movers, lang)
        if me is not None and view["phase"] != "over" and not general else "",
    }}


def _end_turn_off(t, view, seat, movers, lang) -> str:
    """Why End turn is disabled. While another seat is asked in a reaction window, the waiting
    seat reads it here, in the move box's one fixed row (the window's prompt is the asked seat's:
    the move box of the others keeps its height)."""
    if seat in movers:
        return t["why_end_turn"]
    if view["phase"] == "react" and view.get("pending"):
        return t["why_window"].format(card=_name(view["pending"]["no"], lang))
    return t["why_not_turn"]


@lru_cache(maxsize=1024)
def _usable(no) -> bool:
    """The card has a rule its owner may use from the Path or the Display (an Aktion or a
    once-per-turn effect: games/orden/legal.py)."""
    return any(a.kind == "aktion" or (a.kind == "effekt" and a.once_per_turn) for a in R.C[no].abilities)


# Standing orders set where the decision comes up (games/orden/orders.py): each button holds
# the order it sets; orders.js PUTs it to /api/matches/<id>/orders/ beside the seat's others.
ORDER_BUTTONS = (("order_never", {"kind": "reactions", "policy": "never"}),
                 ("order_prevent", {"kind": "reactions", "policy": "prevent_ascents", "min_rank": "VII"}),
                 ("order_ask", {"kind": "reactions", "policy": "ask"}))
ORDER_PAY = {"kind": "payment", "policy": "auto"}


def _order_controls(t, pending, paying) -> dict | None:
    if pending and pending["mine_to_answer"]:
        return {"label": t["orders_react"], "kind": "reactions",
                "buttons": [{"label": t[k], "json": json.dumps(o)} for k, o in ORDER_BUTTONS]}
    if paying:  # a switch: on sets the order, off removes it
        return {"label": "", "kind": "payment", "buttons": [],
                "switch": {"label": t["order_pay"], "json": json.dumps(ORDER_PAY)}}
    return None


def highlights(events: list[dict]) -> dict:
    """Cards moved by the last move (as "seat:card number", marked by board_context) and the
    seats whose rank changed."""
    cards, ranks, seats = [], [], []
    for e in events:
        s = e.get("seat")
        if s is None:
            continue
        seats.append(s)
        if "card" in e:
            cards.append(f"{s}:{e['card']}")
        for no in e.get("cards") or []:
            cards.append(f"{s}:{no}")
        if e.get("type") in ("ascend", "descend"):
            ranks.append(s)
    return {"cards": cards, "ranks": ranks, "seats": seats}


# Why the heuristic bot prefers a move of this kind (games/orden/bots.py: ascending first, then
# once-per-turn rules, then plays worth having, then rules that gain more than they cost).
WHY = {
    "ascend": ("Diese Regel lässt dich einen Rang aufsteigen: Der höchste Rang gewinnt.",
               "This rule lets you climb a rank: the highest rank wins."),
    "once": ("Diese Regel gilt einmal pro Zug: Nutze sie, bevor du den Zug beendest.",
             "This rule works once per turn: use it before you end your turn."),
    "activate": ("Diese Regel bringt dir jetzt mehr, als sie kostet.", "This rule gains you more now than it costs."),
    "play": ("In deiner Auslage kannst du die Regeln dieser Karte anwenden; sie bringt dir von deinen Karten am meisten.",
             "On your display you can use this card's rules; of your cards it gains you most."),
    "end_turn": ("Nichts anderes bringt dir in diesem Zug mehr, als es kostet; danach ziehst oder legst du ab, "
                 "bis du dein Handlimit hältst.",
                 "Nothing else gains you more than it costs this turn; then you draw or discard to your hand limit."),
    "react": ("Deine Reaktion verhindert, dass der andere dir voraus kommt.",
              "Your reaction keeps the other player from getting ahead of you."),
    "decline": ("Keine deiner Reaktionen lohnt ihren Preis hier.", "None of your reactions is worth its cost here."),
    "pay": ("Von deinen Karten gibst du diese am leichtesten her.", "Of your cards, this one is the easiest to give up."),
    "choose": ("Diese Karte hilft dir von den möglichen am meisten.", "Of the cards on offer, this one helps you most."),
    "discard": ("Diese Karte brauchst du am wenigsten.", "This is the card you need least."),
}


def suggestion_text(view: dict, seat: int, action: dict, lang: str) -> tuple[str, str] | None:
    """The guided match's suggested move, named as its button on the board, and why."""
    lang = _lang(lang)
    t = T[lang]
    nos = {c["id"]: c["no"] for sv in view["seats"]
           for zone in ("pfad", "auslage", "ablage", "aussen", "known_hand", "hand") for c in sv.get(zone) or []}
    typ = action.get("type")
    no = action.get("card") if typ == "choose" else nos.get(action.get("card"))
    name = _name(no, lang) if no in R.C else ""
    label = {"play": t["play_card"], "activate": t["use_card"], "react": t["react_with"], "pay": t["pay_with"],
             "discard": t["discard_card"], "choose": t["choose_card"], "decline": t["decline"],
             "end_turn": t["end_turn"]}.get(typ)
    if label is None:
        return None
    key = typ
    if typ == "activate" and no in R.C:
        abilities = R.C[no].abilities
        ability = abilities[action.get("ability", 0)] if 0 <= action.get("ability", 0) < len(abilities) else None
        if ability is not None and ability.ascends:
            key = "ascend"
        elif ability is not None and ability.once_per_turn:
            key = "once"
    text = f"{label} {name}".strip()
    if typ == "activate" and no in R.C:
        rule = _rule(no, action.get("ability", 0), lang)
        text += f": {rule}" if rule else ""
    return text, WHY[key][0 if lang == "de" else 1]


def queued_text(state, action, lang) -> str | None:
    """A queued move in words: „Play “Vision”“, „Use “Adept” (rule 2): …“."""
    lang = _lang(lang)
    t = T[lang]
    ci = state.get("ci") or []
    card = action.get("card") if isinstance(action, dict) else None
    if not isinstance(card, int) or not 0 <= card < len(ci):
        return None
    no = ci[card]
    if action.get("type") == "play":
        return f"{t['play_card']} {_name(no, lang)}"
    if action.get("type") == "activate":
        ai = action.get("ability", 0)
        return f"{t['use_card']} {_name(no, lang)}: {_rule(no, ai, lang)}" if isinstance(ai, int) else None
    return None
