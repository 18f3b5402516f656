"""A card's displayed rules text, generated from its data (German and English), so the
printed text and the behaviour cannot drift apart."""
from __future__ import annotations

from games.orden.schema import FLOORS, Card

PROP_NAMES = {
    "de": {"T": "Treue", "K": "Kampfkraft", "V": "Vermögen", "W": "Wissen", "E": "Erleuchtung",
           "S": "Seligkeit", "?": "beliebig"},
    "en": {"T": "Loyalty", "K": "Might", "V": "Wealth", "W": "Knowledge", "E": "Enlightenment",
           "S": "Bliss", "?": "any"},
}
WAPPEN_NAMES = {
    "orden": ("Orden allgemein", "Order"), "schwert": ("Pfad des Schwertes", "Path of the Sword"),
    "hammer": ("Pfad des Hammers", "Path of the Hammer"), "buch": ("Pfad des Buches", "Path of the Book"),
    "meisterschaft": ("Meisterschaft", "Mastery"), "burgherren": ("Burgherren", "Castellans"),
    "grossmeister": ("Großmeister", "Grand Master"), "seligkeit": ("Seligkeit", "Bliss"),
}
ZONE = {"de": {"hand": "von der Hand", "auslage": "aus der Auslage",
               "hand_or_auslage": "von der Hand oder aus der Auslage"},
        "en": {"hand": "from your hand", "auslage": "from your display",
               "hand_or_auslage": "from your hand or display"}}
SEARCH = {"de": {"deck": "Nachziehstapel", "ablage": "Ablage", "auslage": "Auslage", "hand": "Hand",
                 "aussen": "Außenwelt"},
          "en": {"deck": "draw pile", "ablage": "discard pile", "auslage": "display", "hand": "hand",
                 "aussen": "outside world"}}
# Card TYPEs in small capitals: the German word of the rules, an English one on English pages.
TYPE_NAMES = {"MENTOR": ("MENTOR", "MENTOR"), "BURG": ("BURG", "CASTLE"), "MYSTERIUM": ("MYSTERIUM", "MYSTERY")}
LIMIT = {"play": ("AUSSPIELEN", "PLAYS"), "actions": ("AKTIONEN", "ACTIONS"), "hand": ("HANDLIMIT", "HAND LIMIT")}


def _q(name, lang):
    return f"„{name}“" if lang == "de" else f"“{name}”"


def type_name(typ: str, lang: str) -> str:
    names = TYPE_NAMES.get(typ)
    return names[0 if lang == "de" else 1] if names else typ


def rule_body(a, lang) -> str:
    """A rule's text without its kind ("Aktion: …" → "…"), for the controls that use it."""
    return ability(a, lang).split(": ", 1)[-1]


def props(ps, lang) -> str:
    items = [f"{n}x {p}" for p, n in sorted(ps, key=lambda x: "TKVWES?".index(x[0]))]
    return (" und " if lang == "de" else " and ").join(items)


def _en_name(de_name):
    from games.orden.catalog import cardset
    cards = cardset().by_name.get(de_name)
    return cards[0].name.en if cards else de_name


def selector(sel, lang, count=1) -> str:
    """Every criterion of the selector is shown (a name or TYPE, then Wappen and property)."""
    de = lang == "de"
    if sel.name or sel.type:
        if sel.name:
            head = _q(sel.name if de else _en_name(sel.name), lang)
            head = head if count == 1 else f"{count}x {head}"
            if sel.type:
                head += f" ({type_name(sel.type, lang)})"
        else:
            art = {"MENTOR": "einen", "BURG": "eine", "MYSTERIUM": "ein"}[sel.type] if de else "a"
            name = type_name(sel.type, lang)
            head = f"{art} {name}" if count == 1 else f"{count}x {name}"
        extra = []
        if sel.wappen:
            w = WAPPEN_NAMES[sel.wappen][0 if de else 1]
            extra.append(f"mit dem Wappen {w}" if de else f"with the {w} crest")
        if sel.delivers:
            extra.append(f"die {sel.delivers} liefert" if de else f"delivering {sel.delivers}")
        return head + ("" if not extra else (f", {' und '.join(extra)}," if de else f" {' and '.join(extra)}"))
    parts = []
    if sel.wappen:
        w = WAPPEN_NAMES[sel.wappen][0 if de else 1]
        parts.append(f"mit dem Wappen {w}" if de else f"with the {w} crest")
    if sel.delivers:
        parts.append((f"die {sel.delivers} liefert" if count == 1 else f"die {sel.delivers} liefern") if de
                     else f"delivering {sel.delivers}")
    noun = ("eine Karte" if count == 1 else f"{count} Karten") if de else ("a card" if count == 1 else f"{count} cards")
    if not parts:
        return noun
    # German: the relative clause is closed by a comma, since the verb always follows
    return f"{noun}, {' und '.join(parts)}," if de else f"{noun} {' and '.join(parts)}"


def condition(c, lang) -> str:
    de = lang == "de"
    k = c.kind
    if k == "rank_at_least":
        return f"Du mindestens RANG {c.rank} hast" if de else f"you hold at least RANK {c.rank}"
    if k == "rank_below":
        if c.rank == "I":
            return "Du noch keinen Rang hast" if de else "you hold no rank yet"
        return f"Du einen Rang unter {c.rank} hast" if de else f"your rank is below {c.rank}"
    if k == "rank_in_pfad":
        return f"Du den RANG {c.rank} in Deinem Pfad hast" if de else f"RANK {c.rank} is in your path"
    if k == "possess":
        return f"Du {selector(c.select, lang, c.count)} besitzt" if de else f"you own {selector(c.select, lang, c.count)}"
    if k == "lacks":
        return f"Du nicht {selector(c.select, lang)} besitzt" if de else f"you do not own {selector(c.select, lang)}"
    if k == "possess_props":
        return f"Du mindestens {props(c.props, lang)} besitzt" if de else f"you own at least {props(c.props, lang)}"
    if k == "behind":
        return "ein Mitspieler einen höheren Rang hat als Du" if de else "an opponent ranks above you"
    if k == "yet_to_move":
        return "Du in dieser Runde noch nicht am Zug warst" if de else "you have not had your turn in this round yet"
    if k == "next_to_move":
        return ("Du in dieser Runde als Nächster am Zug bist" if de
                else "you are the next to take your turn in this round")
    if k == "stronger":
        return (f"Du mehr {c.prop} besitzt als jeder Mitspieler" if de
                else f"you own more {c.prop} than every opponent")
    raise ValueError(k)


def conditions(cs, lang) -> str:
    if not cs:
        return ""
    joined = (" und " if lang == "de" else " and ").join(condition(c, lang) for c in cs)
    return ("Wenn " if lang == "de" else "If ") + joined


def cost(c, lang) -> str:
    de = lang == "de"
    if c.what == "self":
        if c.verb == "discard":
            return "Lege diese Karte ab" if de else "Discard this card"
        return "Entferne diese Karte" if de else "Remove this card"
    what = props(c.props, lang) if c.what == "props" else selector(c.select, lang, c.count)
    if de:
        return f"Lege {what} {ZONE['de'][c.zone]} ab" if c.verb == "discard" else f"Entferne {what} {ZONE['de'][c.zone]}"
    return f"{'Discard' if c.verb == 'discard' else 'Remove'} {what} {ZONE['en'][c.zone]}"


def verb(v, lang, ability=None) -> str:
    de = lang == "de"
    k = v.kind
    if k == "draw":
        return (f"Ziehe {v.n} Karte{'n' if v.n > 1 else ''}" if de else f"Draw {v.n} card{'s' if v.n > 1 else ''}")
    if k == "ascend":
        return ("Steige auf" if v.n == 1 else f"Steige {v.n}-mal auf") if de else ("Ascend" if v.n == 1 else f"Ascend {v.n} times")
    if k == "descend":
        who = {"you": ("Steige ab", "Descend"), "each_opponent": ("Jeder Mitspieler steigt ab", "Each opponent descends"),
               "higher_opponents": ("Jeder Mitspieler mit höherem Rang als Du steigt ab",
                                    "Each opponent ranked above you descends")}[v.who]
        text = who[0 if de else 1]
        if v.n > 1:  # „steigt 2-mal ab“
            text = text.removesuffix(" ab") + f" {v.n}-mal ab" if de else f"{text} {v.n} times"
        return text
    if k == "choose":
        what = selector(v.select, lang, v.n)
        zones = ""
        if tuple(v.zones) != ("deck", "ablage", "auslage", "hand"):
            if de:
                zones = " aus " + " oder ".join(("Deinem " if z == "deck" else "Deiner ") + SEARCH["de"][z] for z in v.zones)
            else:
                zones = " from your " + " or ".join(SEARCH["en"][z] for z in v.zones)
        pron = {"MENTOR": "ihn", "MYSTERIUM": "es"}.get(v.select.type, "sie") if v.n == 1 else "sie"
        to = {"hand": (f"und nimm {pron} auf die Hand", "and take it into your hand"),
              "play": (f"und spiele {pron} aus", "and play it"),
              "play_now": (f"und spiele {pron} sofort aus", "and play it at once")}[v.to]
        return f"Wähle {what}{zones} {to[0]}" if de else f"Choose {what}{zones} {to[1]}"
    if k == "prevent":
        asc = ability is not None and ability.on == "ascend"
        if de:
            return "Verhindere den Aufstieg" if asc else "Verhindere die Aktion"
        return "Prevent the ascent" if asc else "Prevent the action"
    if k == "extra":
        if v.limit == "play":
            return (f"Du darfst in diesem Zug {v.n} Karte{'n' if v.n > 1 else ''} mehr ausspielen" if de
                    else f"You may play {v.n} more card{'s' if v.n > 1 else ''} this turn")
        return (f"Du darfst in diesem Zug {v.n} Aktion{'en' if v.n > 1 else ''} mehr ausführen" if de
                else f"You may take {v.n} more action{'s' if v.n > 1 else ''} this turn")
    if k == "force_discard":
        return force_discard(v, lang)
    if k == "discard_self":
        return "Lege diese Karte ab" if de else "Discard this card"
    if k == "remove_self":
        return "Entferne diese Karte" if de else "Remove this card"
    raise ValueError(k)


TARGET = {"each_opponent": ("Jeder Mitspieler", "Each opponent"),
          "higher_opponents": ("Jeder Mitspieler mit höherem Rang als Du", "Each opponent ranked above you"),
          "actor": ("Dieser Mitspieler", "That opponent")}


def floor(limit, lang) -> str:
    """The floor a lowered limit keeps (schema.FLOORS), as printed after the lowering."""
    return f" (aber mindestens {FLOORS[limit]})" if lang == "de" else f" (but at least {FLOORS[limit]})"


def force_discard(v, lang) -> str:
    de = lang == "de"
    who = TARGET[v.who][0 if de else 1]
    if v.weaker:
        who += (f", der weniger {v.weaker} besitzt als Du," if de else f" who owns less {v.weaker} than you")
    if v.src == "hand":
        what = (("1 zufällige Handkarte" if v.n == 1 else f"{v.n} zufällige Handkarten") if de
                else ("1 random card from hand" if v.n == 1 else f"{v.n} random cards from hand"))
    else:
        sel = selector(v.select, lang, v.n) if v.select else (
            ("eine Karte" if v.n == 1 else f"{v.n} Karten") if de else ("a card" if v.n == 1 else f"{v.n} cards"))
        what = (f"{sel} aus seiner Auslage (zufällig gewählt)" if de else f"{sel} from their display (picked at random)")
    if v.src == "hand" and v.select:
        sel = selector(v.select, lang, v.n).rstrip(",")
        what += f" ({sel})"
    return f"{who} legt {what} ab" if de else f"{who} discards {what}"


_IMPERATIVES = ("Lege", "Entferne", "Ziehe", "Steige", "Wähle", "Verhindere",
                "Discard", "Remove", "Draw", "Ascend", "Choose", "Prevent", "Descend")


def _join(parts, lang):
    """First part as is; later imperatives lower-cased, German joined with „und“."""
    out = parts[:1]
    for prev, p in zip(parts, parts[1:]):
        # "Jeder Mitspieler legt … ab. Ziehe 1 Karte."; "Wähle … und nimm sie auf die Hand. Ziehe 1 Karte."
        if prev.split(" ", 1)[0] not in _IMPERATIVES or (" und " if lang == "de" else " and ") in prev:
            out.append(". " + p)
        elif lang != "de" and p.startswith("You "):  # "Draw 1 card and you may take …"
            out.append(" and " + p[0].lower() + p[1:])
        else:
            out.append((" und " if lang == "de" else " and ")
                       + (p[0].lower() + p[1:] if p.split(" ", 1)[0] in _IMPERATIVES else p))
    return "".join(out)


def ability(a, lang) -> str:
    de = lang == "de"
    head = {"aktion": ("Aktion", "Action"), "reaktion": ("Reaktion", "Reaction"), "effekt": ("Effekt", "Effect")}[a.kind][0 if de else 1]
    body = []
    if a.kind == "reaktion":
        trig = ("wenn ein Mitspieler aufsteigen will" if de else "when an opponent wants to ascend") if a.on == "ascend" \
            else ("wenn ein Mitspieler Dir mit einer Aktion schaden will" if de else "when an opponent's action would harm you") \
            if a.on == "hostile" \
            else ("wenn ein Mitspieler eine Aktion ausführt" if de else "when an opponent takes an action")
        head = f"{head} ({trig})"
    if a.kind == "effekt" and a.statics:
        bits = []
        for st in a.statics:
            if st.kind == "limit":
                bits.append(f"{LIMIT[st.limit][0 if de else 1]}{st.plus:+d}" + (floor(st.limit, lang) if st.plus < 0 else ""))
            elif st.kind == "opp_limit":
                lim = LIMIT[st.limit][0 if de else 1]
                bits.append((f"Jeder Mitspieler hat {lim}-{st.plus}" if de else f"Each opponent has {lim}-{st.plus}")
                            + floor(st.limit, lang))
            elif st.kind == "ban":
                sel = st.select
                if sel.type and not (sel.name or sel.wappen or sel.delivers):
                    kein = {"MENTOR": "keinen", "BURG": "keine", "MYSTERIUM": "kein"}.get(sel.type, "keine")
                    bits.append(f"Mitspieler dürfen {kein} {type_name(sel.type, lang)} ausspielen" if de
                                else f"Opponents may not play a {type_name(sel.type, lang)}")
                else:
                    what = selector(sel, lang)
                    bits.append(f"Mitspieler dürfen {what} nicht ausspielen" if de else f"Opponents may not play {what}")
            else:
                f = ("doppelt" if st.factor == 2 else f"{st.factor}-fach") if de else ("double" if st.factor == 2 else f"{st.factor} times")
                bits.append(f"Deine ausliegenden {st.prop} zählen {f}" if de else f"Your {st.prop} on display count {f}")
        # a limit is a token („HANDLIMIT+1, AUSSPIELEN+1“); a clause („Jeder Mitspieler hat …“) is a sentence
        text = bits[0]
        for st, prev, bit in zip(a.statics[1:], a.statics, bits[1:]):
            text += (", " if st.kind == "limit" and prev.kind == "limit" else ". ") + bit
        text += "."
        cond = conditions(a.conditions, lang)
        return f"{head}: {cond + ': ' if cond else ''}{text}"
    lead = conditions(a.conditions, lang)
    if a.when is not None:
        lead = conditions((a.when,) + tuple(a.conditions), lang)
    elif a.on == "ascend" and a.kind == "effekt":
        lead = "Wenn Du aufsteigst" if de else "When you ascend"
    elif a.on == "turn_start" and a.kind == "effekt":
        lead = "Zu Beginn Deines Zuges" if de else "At the start of your turn"
    if a.once_per_turn:
        if lead:
            lead = f"{lead}, darfst Du einmal pro Zug" if de else f"{lead}, once per turn you may"
        else:
            lead = "Einmal pro Zug darfst Du" if de else "Once per turn you may"
    costs = [cost(c, lang) for c in a.costs]
    verbs = [verb(v, lang, a) for v in a.verbs]
    if a.once_per_turn:
        verbs = [_infinitive(verbs[0], lang)] + verbs[1:]
    if a.once_per_turn and costs:  # "… darfst Du 1 Karte von der Hand ablegen und 2 Karten ziehen."
        seq = " und ".join(_infinitive(c, lang) for c in costs) if de else " and ".join(
            c[0].lower() + c[1:] for c in costs)
        seq += (" und " if de else " and ") + _join(verbs, lang) + "."
    else:
        seq = _join(costs, lang) + (": " if costs else "") + _join(verbs, lang) + "."
    if lead and costs and not a.once_per_turn:  # "If …, discard …: ascend."
        seq = seq[0].lower() + seq[1:]
        body.append(lead + ",")
    elif lead:
        body.append(lead + ":" if not a.once_per_turn else lead)
    return f"{head}: {' '.join(body + [seq])}"


def _infinitive(text, lang):
    """„Ziehe 1 Karte“ → „1 Karte ziehen“ after „darfst Du“; English just lower-cases."""
    if lang != "de":
        return text[0].lower() + text[1:]
    verb, _, rest = text.partition(" ")
    inf = {"Ziehe": "ziehen", "Wähle": "wählen", "Lege": "ablegen", "Steige": "aufsteigen"}.get(verb)
    if inf is None:
        return text
    rest = rest.removesuffix(" ab").removesuffix(" auf")
    return f"{rest} {inf}".strip()


def delivery_line(card: Card, lang) -> str:
    if not card.liefert:
        return ""
    de = lang == "de"
    opts = []
    for d in card.liefert:
        s = props(d.props, lang)
        if d.conditions:
            cond = (" und " if de else " and ").join(condition(c, lang) for c in d.conditions)
            if opts:  # a later option's condition goes first, so it cannot be read as the earlier one's too
                s = (", wenn " if de else ", if ") + cond + ", " + s
            else:
                s += (", wenn " if de else ", if ") + cond
        opts.append(s)
    joined = "".join(o if not i else (" oder" if de else " or") + ("" if o.startswith(",") else " ") + o
                     for i, o in enumerate(opts))
    extra = " (nicht beides)" if de and len(opts) > 1 else (" (not both)" if len(opts) > 1 else "")
    return ("Liefert " if de else "Delivers ") + joined + extra + "."


def card_text(card: Card, lang: str = "de") -> list[str]:
    """The rules text as display lines: TYPE, rank gate, deliveries, one line per rule."""
    de = lang == "de"
    lines = []
    if card.kind == "rank":
        label = ("Kein Rang" if de else "No rank") if card.rank == "0" else f"{'RANG' if de else 'RANK'} {card.rank}"
        lines.append(label + (f" ({WAPPEN_NAMES[card.path][0 if de else 1]})" if card.path else ""))
        if card.rank == "X":
            lines.append("Liegt dieser Rang oben, ist das Spiel sofort beendet." if de
                         else "When this rank comes on top, the game ends at once.")
    if card.type:
        lines.append(type_name(card.type, lang) + (f" ({'Stufe' if de else 'level'} {card.level})" if card.level else ""))
    if card.rank_gate:
        lines.append(f"Ab RANG {card.rank_gate}." if de else f"From RANK {card.rank_gate} on.")
    d = delivery_line(card, lang)
    if d:
        lines.append(d)
    lines += [ability(a, lang) for a in card.abilities]
    return lines


def _table_no(card: Card) -> str:
    if card.since >= 4:
        return f"{card.no} (neu in {card.since})"
    return f"{card.no} (neu)" if card.since == 3 else str(card.no)


def _table_place(card: Card) -> str:
    if card.kind == "rank":
        return f"{card.rank} {card.path}" if card.path else card.rank
    return f"ab {card.rank_gate}" if card.rank_gate else ""


def card_table(cards) -> list[str]:
    """docs/games/orden.md's table of all current cards (a test keeps the page equal to it):
    ranks in Pfad order (Schwert, Hammer, Buch at each rank), then the Nachziehstapel cards by number."""
    from games.orden.schema import PATHS, RANKS

    def order(c: Card):
        if c.kind == "rank":
            return (0, RANKS[c.rank], PATHS.index(c.path) if c.path else -1, c.no)
        return (1, 0, 0, c.no)

    rows = ["| no | name (de / en) | rank / path or gate | count | rules text (generated from the data, de) |",
            "|---|---|---|---|---|"]
    for c in sorted(cards, key=order):
        rows.append(f"| {_table_no(c)} | {c.name.de} / {c.name.en} | {_table_place(c)} | {c.count} | "
                    f"{' '.join(card_text(c, 'de'))} |")
    return rows


# The log's words for destinations and zones (plugin.describe, presentation's action extras).
TO = {"hand": ("nimmt sie auf die Hand", "takes it into the hand"),
      "play": ("spielt sie aus", "plays it"), "play_now": ("spielt sie sofort aus", "plays it at once")}
SOURCE = {"deck": ("Nachziehstapel", "draw pile"), "ablage": ("Ablage", "discard pile"),
          "auslage": ("Auslage", "display"), "hand": ("Hand", "hand"), "aussen": ("Außenwelt", "outside world")}
