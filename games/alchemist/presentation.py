"""Alchemist presentation: names (de/en), log lines, board context, form parsing. No Django."""
from __future__ import annotations

from functools import lru_cache
from html import escape

from games.base import IllegalAction
from games.textnum import is_small_int

from .rules import CIDX, COLOURS, FIRST_ROUND_MIN_VALUE, NOT_YOUR_TURN, PAIRS

HEX = {"blue": "#2f6fd6", "green": "#2c9a4b", "grey": "#8c8c8c", "orange": "#ef7d1a", "yellow": "#efcf2a"}
# (singular, plural) per language; seed's German names, English edition's names
NAMES = {
    "de": {"blue": ("Pilz", "Pilze"), "green": ("Schlangengift", "Schlangengift"),
           "grey": ("Vogelbein", "Vogelbeine"), "orange": ("Trollauge", "Trollaugen"),
           "yellow": ("Spinne", "Spinnen")},
    "en": {"blue": ("mushroom", "mushrooms"), "green": ("snake venom", "snake venom"),
           "grey": ("bird leg", "bird legs"), "orange": ("troll eye", "troll eyes"),
           "yellow": ("spider", "spiders")},
}
COLOUR_WORD = {"de": {"blue": "blau", "green": "grün", "grey": "grau", "orange": "orange", "yellow": "gelb"},
               "en": {c: c for c in COLOURS}}
# Seat colours: each must show on the page's light background (fame bars, seals, pots), and
# none may look like an ingredient's colour.
SEAT_HEX = ("#7d3c98", "#0f7c8c", "#c0392b", "#1f2a36")
ROMAN = ("I", "II", "III", "IV", "V")


def _lang(lang: str) -> str:
    return "de" if lang == "de" else "en"


def ingredient_name(colour: str, lang: str, count: int = 2) -> str:
    sg, pl = NAMES[_lang(lang)][colour]
    return sg if count == 1 else pl


def count_text(counts: dict, lang: str) -> str:
    """{"blue": 2, "grey": 1} -> '2 Pilze, 1 Vogelbein'."""
    parts = [f"{n} {ingredient_name(c, lang, n)}" for c in COLOURS if (n := counts.get(c, 0))]
    if parts:
        return ", ".join(parts)
    return "nichts" if _lang(lang) == "de" else "nothing"


def _list_colours(colours, lang) -> dict:
    out: dict = {}
    for c in colours:
        out[c] = out.get(c, 0) + 1
    return out


# -- log lines ---------------------------------------------------------------------------------
def describe(event: dict, names: list[str], lang: str) -> str:
    de = _lang(lang) == "de"
    t = event.get("type")

    def who(key="seat"):
        s = event.get(key)
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else f"#{s}"

    def fame(n):  # "1 fame point", "9 fame points"
        if de:
            return f"{n} Ruhmespunkt" if n == 1 else f"{n} Ruhmespunkte"
        return f"{n} fame point" if n == 1 else f"{n} fame points"

    def byprod():
        got = event.get("byproducts") or []
        if not got:
            return (" Keine Nebenprodukte: der Vorrat ist erschöpft." if de
                    else " No by-products: the reserve has run out.")
        txt = count_text(_list_colours(got, lang), lang)
        return f" Nebenprodukte: {txt}." if de else f" By-products: {txt}."

    if t == "design":
        c = event["cauldron"]
        pair = "/".join(ingredient_name(COLOURS[b], lang) for b in PAIRS[c])
        ing = count_text(event["ingredients"], lang)
        v = event["value"]
        if de:
            return (f"{who()} entwirft eine neue Rezeptur in Kessel {c + 1} ({pair}): {ing}; "
                    f"Ruhmesplättchen {v}: {fame(v)}." + byprod())
        return (f"{who()} designs a new recipe in cauldron {c + 1} ({pair}): {ing}; "
                f"value tile {v}: {fame(v)}." + byprod())
    if t == "copy":
        v, trib = event["value"], event["tribute"]
        rest = dict(event["ingredients"])
        rest[trib] -= 1
        if de:
            return (f"{who()} kopiert den Trank von {who('owner')}: {fame(v)}. "
                    f"Tribut an {who('owner')}: 1 {ingredient_name(trib, lang, 1)}; "
                    f"aus dem Spiel: {count_text(rest, lang)}." + byprod())
        return (f"{who()} copies {who('owner')}'s potion: {fame(v)}. "
                f"Tribute to {who('owner')}: 1 {ingredient_name(trib, lang, 1)}; "
                f"out of the game: {count_text(rest, lang)}." + byprod())
    if t == "pass_take":
        n1 = ingredient_name(event["colour"], lang, 1)
        return (f"{who()} passt und nimmt 1 {n1} aus dem offenen Vorrat." if de
                else f"{who()} passes and takes 1 {n1} from the reserve.")
    if t == "pass_draw":
        k = event["count"]
        if de:
            return f"{who()} passt und zieht {k} {'Ingredienz' if k == 1 else 'Ingredienzien'} aus dem Beutel."
        return f"{who()} passes and draws {k} {'ingredient' if k == 1 else 'ingredients'} from the bag."
    if t == "drawn":
        txt = count_text(event["ingredients"], lang)
        return f"{who()} zieht aus dem Beutel: {txt}." if de else f"{who()} draws from the bag: {txt}."
    if t == "pass_empty":
        return (f"{who()} passt; Vorrat und Beutel sind leer." if de
                else f"{who()} passes; reserve and bag are empty.")
    if t == "end":
        gone = ", ".join(ingredient_name(c, lang) for c in event["exhausted"])
        k = len(event["exhausted"])
        if de:
            return (f"Ende des Wettstreits nach Runde {event['round']}: im offenen Vorrat sind "
                    f"{k} Sorten aufgebraucht ({gone}).")
        return (f"The contest ends after round {event['round']}: {k} kinds are gone from "
                f"the reserve ({gone}).")
    if t == "score":
        left = event["leftover_points"]
        cubes = count_text(event.get("ingredients") or {}, lang)
        if de:
            line = f"{who()}: {fame(event['fame'])} + {left} für übrige Ingredienzien ({cubes})"
        else:
            line = f"{who()}: {fame(event['fame'])} + {left} for leftover ingredients ({cubes})"
        if event.get("school_rank"):
            rank = ROMAN[event["school_rank"] - 1]
            school = ingredient_name(event["school"], lang)
            line += (f" + {event['school_points']} für Rang {rank} der Schule ({school})" if de
                     else f" + {event['school_points']} for rank {rank} of the school ({school})")
        place = event["place"]
        return line + (f" = {event['total']}, Platz {place}." if de
                       else f" = {event['total']}, place {place}.")
    return str(t)


# -- HTML forms -> actions -----------------------------------------------------------------
def _form_int(data: dict, key: str, what_en: str, what_de: str) -> int:
    raw = (data.get(key) or "").strip()
    try:
        return int(raw)
    except ValueError:
        raise IllegalAction(f"Choose a {what_en}.", f"Wähle {what_de}.") from None


def _form_colour(raw: str, what_en: str, what_de: str) -> str:
    raw = (raw or "").strip()
    if raw not in CIDX:
        raise IllegalAction(f"Choose a {what_en}.", f"Wähle {what_de}.")
    return raw


def parse_recipe(code: str) -> dict:
    """'blue:2,grey:2,orange:1' -> {"blue": 2, "grey": 2, "orange": 1}."""
    out: dict = {}
    for part in (code or "").split(","):
        colour, _, n = part.strip().partition(":")
        if colour not in CIDX or colour in out or not is_small_int(n, 6):
            raise IllegalAction("Choose a recipe.", "Wähle eine Rezeptur.")
        out[colour] = int(n)
    return out


def recipe_code(ingredients: dict) -> str:
    return ",".join(f"{c}:{ingredients[c]}" for c in COLOURS if ingredients.get(c))


def action_from_form(data: dict) -> dict:
    """Fields: type=design|copy|pass.
    design: cauldron (0-9), value (1-10), recipe ('blue:2,grey:1') or one count field per colour.
    copy: cauldron, tribute (colour).  pass: take (colour) or draw=1, or neither (bare pass)."""
    kind = (data.get("type") or "").strip()
    if kind == "design":
        cauldron = _form_int(data, "cauldron", "cauldron", "einen Kessel")
        value = _form_int(data, "value", "value tile", "ein Ruhmesplättchen")
        if data.get("recipe"):
            ingredients = parse_recipe(data["recipe"])
        else:
            ingredients = {}
            for c in COLOURS:
                raw = (data.get(c) or "").strip()
                if raw:
                    if not is_small_int(raw, 6):
                        raise IllegalAction("Ingredient counts must be whole numbers.",
                                            "Anzahlen müssen ganze Zahlen sein.")
                    if int(raw):
                        ingredients[c] = int(raw)
            if not ingredients:
                raise IllegalAction("Choose a recipe.", "Wähle eine Rezeptur.")
        return {"type": "design", "cauldron": cauldron, "ingredients": ingredients, "value": value}
    if kind == "copy":
        cauldron = _form_int(data, "cauldron", "cauldron", "einen Kessel")
        tribute = _form_colour(data.get("tribute"), "tribute", "einen Tribut")
        return {"type": "copy", "cauldron": cauldron, "tribute": tribute}
    if kind == "pass":
        if data.get("take"):
            return {"type": "pass", "take": _form_colour(data["take"], "colour", "eine Farbe")}
        if (data.get("draw") or "").strip().lower() in ("1", "true", "on", "yes"):
            return {"type": "pass", "draw": True}
        return {"type": "pass"}
    raise IllegalAction("Choose a move: design, copy or pass.",
                        "Wähle einen Zug: entwerfen, kopieren oder passen.")


# -- board context -------------------------------------------------------------------------
TEXT = {
    "de": {
        "compendium": "Kompendium", "cauldron": "Kessel", "byproducts": "Nebenprodukte",
        "forbidden": "verboten", "free": "frei", "empty": "leer", "designer": "Entworfen von",
        "value_tiles": "Ruhmesplättchen", "free_tiles": "Freie Ruhmesplättchen",
        "reserve": "Offener Vorrat", "bag": "Beutel", "removed": "Aus dem Spiel",
        "fame": "Ruhmesleiste", "seals": "Siegel", "cubes": "Ingredienzien", "player": "Adept",
        "my_screen": "Mein Sichtschirm", "school": "Meine Schule", "no_school": "ohne Schulen",
        "design": "Neue Rezeptur entwerfen", "copy": "Rezeptur kopieren", "pass": "Passen",
        "recipe": "Rezeptur", "tribute": "Tribut", "submit_design": "Entwerfen",
        "submit_copy": "Kopieren", "take": "Nehmen", "draw": "2 aus dem Beutel ziehen",
        "pass_empty": "Passen (nichts mehr zu holen)", "round": "Runde", "to_move": "am Zug",
        "finished": "Wettstreit beendet", "final": "Schlusswertung", "leftover": "Übrige",
        "rank": "Rang", "total": "Summe", "place": "Platz", "you": "du",
        "not_your_turn": "Warte auf deinen Zug.", "first_round": "Erste Runde zu zweit: Entwurf mit Wert mindestens 5.",
        "taken": "Schon im Kompendium", "start": "Startspieler",
        "your_move": "Dein Zug", "rules": "Regeln", "help": "Hilfe: Nebenprodukte, verbotene Ingredienzien, Tribut", "players": "Adepten im Detail",
        "supply": "Vorrat, Beutel und Plättchen",
        "help_byproducts": "Nebenprodukte: Wer hier entwirft oder kopiert, erhält diese beiden aus dem offenen Vorrat; in die eigene Rezeptur dürfen sie nicht.",
        "help_forbidden": "Verboten: die Nebenprodukte dieses Kessels, mehr als zwei gleiche Ingredienzien und eine Rezeptur, die schon im Kompendium steht.",
        "help_tribute": "Tribut: Du bezahlst die Rezeptur; die gewählte Ingredienz erhält der Urheber, der Rest kommt aus dem Spiel.",
        "help_pass": "Passen: 1 Ingredienz aus dem offenen Vorrat nehmen oder 2 aus dem Beutel ziehen.",
        "waiting_for": "Warte auf den Zug von", "copy_short": "Kopieren", "design_short": "Entwerfen",
        "why_own": "Die eigene Rezeptur kann nicht kopiert werden.",
        "why_lack": "Dir fehlt:", "why_no_seals": "Keine Siegelsteine mehr: du kannst nicht entwerfen.",
        "why_no_recipe": "Keine erlaubte Rezeptur aus deinen Ingredienzien (ohne die Nebenprodukte, höchstens 2 gleiche, keine schon vorhandene).",
        "why_first_round": "Erste Runde zu zweit: nur ein Entwurf mit Wert mindestens 5.",
        "why_no_tile": "Kein freies Ruhmesplättchen mehr.",
        "why_empty_reserve": "Im Vorrat aufgebraucht.", "why_empty_bag": "Der Beutel ist leer.",
        "why_pass_needs_take": "Nur wenn Vorrat und Beutel leer sind.",
    },
    "en": {
        "compendium": "Compendium", "cauldron": "Cauldron", "byproducts": "By-products",
        "forbidden": "forbidden", "free": "free", "empty": "empty", "designer": "Designed by",
        "value_tiles": "Value tiles", "free_tiles": "Free value tiles",
        "reserve": "Reserve", "bag": "Bag", "removed": "Out of the game",
        "fame": "Fame track", "seals": "Seals", "cubes": "Ingredients", "player": "Player",
        "my_screen": "My screen", "school": "My school", "no_school": "without schools",
        "design": "Design a new recipe", "copy": "Copy a recipe", "pass": "Pass",
        "recipe": "Recipe", "tribute": "Tribute", "submit_design": "Design",
        "submit_copy": "Copy", "take": "Take", "draw": "Draw 2 from the bag",
        "pass_empty": "Pass (nothing left to take)", "round": "Round", "to_move": "to move",
        "finished": "Contest over", "final": "Final scoring", "leftover": "Leftover",
        "rank": "Rank", "total": "Total", "place": "Place", "you": "you",
        "not_your_turn": "Waiting for your turn.", "first_round": "Two players, first round: design worth at least 5.",
        "taken": "Already in the compendium", "start": "Start player",
        "your_move": "Your move", "rules": "Rules", "help": "Help: by-products, forbidden ingredients, tribute", "players": "Players in detail",
        "supply": "Reserve, bag and tiles",
        "help_byproducts": "By-products: whoever designs or copies here takes these two from the reserve; they may not go into the recipe itself.",
        "help_forbidden": "Forbidden: this cauldron's by-products, more than two of one ingredient, and a recipe already in the compendium.",
        "help_tribute": "Tribute: you pay the recipe; the ingredient you pick goes to its designer, the rest leaves the game.",
        "help_pass": "Pass: take 1 ingredient from the reserve or draw 2 from the bag.",
        "waiting_for": "Waiting for the move of", "copy_short": "Copy", "design_short": "Design",
        "why_own": "You cannot copy your own recipe.",
        "why_lack": "You lack:", "why_no_seals": "No seals left: you cannot design.",
        "why_no_recipe": "No allowed recipe from your ingredients (not the by-products, at most 2 of a kind, none already in the compendium).",
        "why_first_round": "Two players, first round: only a design worth at least 5.",
        "why_no_tile": "No free value tile left.",
        "why_empty_reserve": "None left in the reserve.", "why_empty_bag": "The bag is empty.",
        "why_pass_needs_take": "Only when reserve and bag are empty.",
    },
}


def _chip(colour: str, lang: str, count: int | None = None) -> dict:
    if count is None:
        return _plain_chip(colour, lang)
    return {**_plain_chip(colour, lang), "name": ingredient_name(colour, lang, count),
            "count": count, "range": list(range(count))}


@lru_cache(maxsize=64)
def _plain_chip(colour: str, lang: str) -> dict:
    """A colour's names and swatch; shared by every chip of the page (read-only)."""
    both = f"{NAMES['de'][colour][1]} / {NAMES['en'][colour][1]}"
    return {"key": colour, "name": ingredient_name(colour, lang), "both": both, "hex": HEX[colour],
            "word": COLOUR_WORD[_lang(lang)][colour]}


def _cubes(ingredients: dict | None, lang: str) -> list[dict]:
    return [_chip(c, lang) for c in COLOURS for _ in range((ingredients or {}).get(c, 0))]


class _Html(str):
    """Markup built here, already escaped: templates print it as it is (the ``__html__``
    protocol Django's autoescaping honours), without this module importing Django."""
    __slots__ = ()

    def __html__(self):
        return self


@lru_cache(maxsize=4096)
def _recipe_option(items: tuple, lang: str) -> dict:
    """One recipe of the design form (``items``: its ingredients' (colour, count) pairs), and
    its radio button's markup: the player to move sees hundreds of these after every move, and
    the template's loop over their cubes was most of the page's render time. Shared (read-only)."""
    ingredients = dict(items)
    code = recipe_code(ingredients)
    label = count_text(ingredients, lang)
    # Short markup: the player to move's page holds a few hundred of these (every empty
    # cauldron's options) and gets them again after every move; the cubes are board.css's
    # ".alc-design label i". No "required": the first button is checked, a radio stays chosen.
    cubes = "".join(f'<i class="c-{c}"></i>' for c in COLOURS for _ in range(ingredients.get(c, 0)))
    # in two halves around the first button's " checked"
    markup = (f'<label><input type="radio" name="recipe" value="{escape(code)}"',
              f'>{cubes} <small>{escape(label)}</small></label>')
    return {"code": code, "label": label, "cubes": _cubes(ingredients, lang), "markup": markup}


@lru_cache(maxsize=256)
def _byproducts_html(byproducts: tuple, lang: str) -> dict:
    """A cauldron's by-products as board.html showed them (cubes, the pot's circles, the
    "forbidden" list), built once per pair and language. Shared (read-only)."""
    chips = [_plain_chip(b, lang) for b in byproducts]
    return {
        "cubes": _Html("".join(f'<span class="alc-cube c-{escape(b["key"])}" data-colour="{escape(b["key"])}" '
                               f'title="{escape(b["name"])}" role="img" aria-label="{escape(b["name"])}"></span>'
                               for b in chips)),
        "circles": _Html("".join(f'<circle cx="{40 if i == 0 else 80}" cy="9" r="7" fill="{escape(b["hex"])}" '
                                 f'stroke="#333"/>' for i, b in enumerate(chips))),
        "names": _Html(", ".join(escape(b["name"]) for b in chips)),
    }


@lru_cache(maxsize=1024)
def _recipe_cubes_html(items: tuple, lang: str) -> _Html:
    """A designed recipe's cubes in its cauldron, as board.html's loop printed them."""
    return _Html("".join(f'<span class="alc-cube" style="background:{escape(k["hex"])}" title="{escape(k["name"])}" '
                         f'role="img" aria-label="{escape(k["name"])}"></span>' for k in _cubes(dict(items), lang)))


def _values_html(values: list) -> _Html:
    """The design form's value tiles, the highest selected."""
    return _Html("".join(f'<option value="{v}"{" selected" if i == len(values) - 1 else ""}>{v}</option>'
                         for i, v in enumerate(values)))


def _recipes_html(recipes) -> _Html:
    """The design form's radio buttons, the first one checked."""
    out = []
    for r in recipes:
        out += (r["markup"][0], " checked" if not out else "", r["markup"][1])
    return _Html("".join(out))


def board_context(view: dict, seat: int | None, legal: list[dict], lang: str) -> dict:
    lang = _lang(lang)
    t = TEXT[lang]
    designs: dict[int, dict] = {}
    copies: dict[int, list] = {}
    takes, can_draw, bare = [], False, False
    for a in legal:
        if a["type"] == "design":
            d = designs.get(a["cauldron"]) or designs.setdefault(a["cauldron"], {"recipes": {}, "values": set()})
            option = _recipe_option(tuple(a["ingredients"].items()), lang)
            d["recipes"].setdefault(option["code"], option)
            d["values"].add(a["value"])
        elif a["type"] == "copy":
            copies.setdefault(a["cauldron"], []).append(_chip(a["tribute"], lang))
        elif "take" in a:
            takes.append(_chip(a["take"], lang, view["reserve"][a["take"]]))
        elif a.get("draw"):
            can_draw = True
        else:
            bare = True
    me = None
    seats = []
    top = max([50] + [s["fame"] for s in view["seats"]])
    for s in view["seats"]:
        label = f"{t['player']} {s['seat'] + 1}"
        row = {"seat": s["seat"], "label": label, "fame": s["fame"],
               "fame_pct": round(100 * s["fame"] / top), "seals": s["seals"],
               "seal_range": list(range(s["seals"])), "count": s["ingredient_count"],
               "hex": SEAT_HEX[s["seat"] % len(SEAT_HEX)], "is_me": s["seat"] == seat,
               "to_move": s["seat"] in view["to_move"], "is_start": s["seat"] == view["start_seat"],
               "cubes": [_chip(c, lang, n) for c, n in (s["ingredients"] or {}).items() if n]
               if s["ingredients"] is not None else None,
               "school": _chip(s["school"], lang) if s["school"] else None}
        seats.append(row)
        if s["seat"] == seat:
            me = row
    why = _Reasons(view, seat, legal, lang, designs, copies)
    cauldrons = []
    for c in view["cauldrons"]:
        idx = c["index"]
        d = designs.get(idx)
        owner = c["owner"]
        cauldrons.append({
            "why_no_design": why.design(c) if c["owner"] is None and idx not in designs else None,
            "why_no_copy": why.copy(c) if c["owner"] is not None and idx not in copies else None,
            "index": idx, "number": idx + 1,
            "byproducts": [_chip(b, lang) for b in c["byproducts"]],
            "recipe_cubes": _cubes(c["recipe"], lang) if c["recipe"] else [],
            "recipe_text": count_text(c["recipe"], lang) if c["recipe"] else "",
            "value": c["value"], "owner": owner,
            "owner_label": f"{t['player']} {owner + 1}" if owner is not None else "",
            "owner_hex": SEAT_HEX[owner % len(SEAT_HEX)] if owner is not None else "",
            "mine": owner is not None and owner == seat,
            "design": ({"recipes": list(d["recipes"].values()), "values": sorted(d["values"]),
                        "recipes_html": _recipes_html(d["recipes"].values()),
                        "values_html": _values_html(sorted(d["values"]))} if d else None),
            "byproducts_html": _byproducts_html(tuple(c["byproducts"]), lang),
            "recipe_cubes_html": _recipe_cubes_html(tuple(c["recipe"].items()), lang) if c["recipe"] else "",
            "copies": copies.get(idx, []),
        })
    final = None
    if view["final"]:
        final = [dict(r, label=f"{t['player']} {r['seat'] + 1}",
                      rank_roman=ROMAN[r["school_rank"] - 1] if r["school_rank"] else "",
                      fame=view["seats"][r["seat"]]["fame"],
                      school=_chip(view["seats"][r["seat"]]["school"], lang)
                      if view["seats"][r["seat"]]["school"] else None)
                 for r in sorted(view["final"]["seats"], key=lambda r: (r["place"], r["seat"]))]
    fame_word = "Ruhm" if lang == "de" else "Fame"
    summaries = [f"{fame_word} {s['fame']}" for s in view["seats"]]
    details = [[f"{t['seals']}: {s['seals']}", f"{t['cubes']}: {s['ingredient_count']}"]
               + ([t["start"]] if s["seat"] == view["start_seat"] else []) for s in view["seats"]]
    if view["final"]:
        for r in view["final"]["seats"]:
            summaries[r["seat"]] = f"{t['total']} {r['total']}"
    return {"seat_summaries": summaries, "seat_details": details, "alc": {
        "t": t, "lang": lang, "round": view["round"], "schools": view["schools"],
        "finished": view["finished"], "my_turn": bool(legal),
        "colours": [_chip(c, lang) for c in COLOURS],
        "reserve": [_chip(c, lang, view["reserve"][c]) for c in COLOURS],
        "removed": [_chip(c, lang, view["removed"][c]) for c in COLOURS],
        "bag": view["bag"],
        "tiles": [{"value": v, "free": v in view["value_tiles"]} for v in range(1, 11)],
        "cauldrons": cauldrons, "seats": seats, "me": me,
        "takes": takes, "can_draw": can_draw, "bare_pass": bare,
        "pass_row": why.passes(takes, can_draw), "turn_reason": why.turn,
        "mover": view["to_move"][0] if view["to_move"] else None,
        "can_pass": bool(takes or can_draw or bare),
        "first_round_rule": view["players"] == 2 and view["round"] == 1 and not view["finished"],
        "final": final,
    }}


class _Reasons:
    """Why a move a player would look for is not offered (shown beside it, disabled), worked out
    from the seat's view with the rules' own numbers. None: offered, or no move to explain."""

    def __init__(self, view, seat, legal, lang, designs, copies):
        self.t = TEXT[lang]
        self.lang = lang
        self.view = view
        seats = view["seats"]
        self.me = seats[seat] if seat is not None and 0 <= seat < len(seats) else None
        self.seat = seat
        self.active = self.me is not None and not view["finished"]
        self.turn = (NOT_YOUR_TURN[1] if lang == "de" else NOT_YOUR_TURN[0]) if self.active and not legal else None
        self.first_round = view["players"] == 2 and view["round"] == 1

    def design(self, c):
        if not self.active:
            return None
        if self.turn:
            return self.turn
        if self.me["seals"] <= 0:
            return self.t["why_no_seals"]
        if not self.view["value_tiles"]:
            return self.t["why_no_tile"]
        if self.first_round and max(self.view["value_tiles"]) < FIRST_ROUND_MIN_VALUE:
            return self.t["why_first_round"]
        return self.t["why_no_recipe"]

    def copy(self, c):
        if not self.active:
            return None
        if c["owner"] == self.seat:
            return self.t["why_own"]
        if self.turn:
            return self.turn
        if self.first_round:
            return self.t["why_first_round"]
        have = self.me["ingredients"] or {}
        lack = {k: n - have.get(k, 0) for k, n in c["recipe"].items() if n > have.get(k, 0)}
        if lack:
            return f"{self.t['why_lack']} {count_text(lack, self.lang)}"
        return None

    def passes(self, takes, can_draw):
        """The pass row: every take and the draw, offered (``ok``) or with its reason, so the
        row keeps its shape whether or not it is this seat's turn."""
        if not self.active:
            return []
        offered = {k["key"] for k in takes}
        row = []
        for colour in COLOURS:
            n = self.view["reserve"][colour]
            reason = "" if colour in offered else (self.turn or (
                self.t["why_first_round"] if self.first_round else None) or self.t["why_empty_reserve"])
            row.append({**_chip(colour, self.lang, n), "ok": colour in offered, "why": reason})
        reason = "" if can_draw else (self.turn or (
            self.t["why_first_round"] if self.first_round else None) or self.t["why_empty_bag"])
        row.append({"key": "", "draw": True, "ok": can_draw, "why": reason})
        return row


# -- what the last move changed ----------------------------------------------------------------
def highlights(events: list[dict]) -> dict:
    """Cauldrons designed or copied, the seats whose fame or ingredients changed and the reserve
    colours taken, from the last move's (visible) events."""
    cauldrons, seats, colours = [], [], []
    for e in events:
        t = e.get("type")
        if t in ("design", "copy"):
            cauldrons.append(e["cauldron"])
            seats.append(e["seat"])
            colours += list(e.get("byproducts") or [])
            if t == "copy" and e.get("owner") is not None:
                seats.append(e["owner"])
        elif t == "pass_take":
            seats.append(e["seat"])
            colours.append(e["colour"])
        elif t in ("pass_draw", "pass_empty"):
            seats.append(e["seat"])
    return {"cauldrons": cauldrons, "seats": seats, "colours": colours}


def action_text(action: dict, lang: str) -> str | None:
    """A queued move in one line (the owner's table); None for anything unexpected."""
    de = lang == "de"
    try:
        t = action.get("type")
        if t == "design":
            c, v = int(action["cauldron"]), action["value"]
            ing = count_text(action["ingredients"], lang)
            return (f"Neue Rezeptur in Kessel {c + 1}: {ing}; Ruhmesplättchen {v}" if de
                    else f"New recipe in cauldron {c + 1}: {ing}; value tile {v}")
        if t == "copy":
            c, trib = int(action["cauldron"]), ingredient_name(action["tribute"], lang, 1)
            return (f"Trank in Kessel {c + 1} kopieren, Tribut: 1 {trib}" if de
                    else f"Copy the potion in cauldron {c + 1}, tribute: 1 {trib}")
        if t == "pass":
            if action.get("take"):
                n1 = ingredient_name(action["take"], lang, 1)
                return f"Passen und 1 {n1} nehmen" if de else f"Pass and take 1 {n1}"
            if action.get("draw"):
                return "Passen und aus dem Beutel ziehen" if de else "Pass and draw from the bag"
            return "Passen" if de else "Pass"
    except (KeyError, TypeError, ValueError):
        return None
    return None


def suggestion_text(view: dict, seat: int, action: dict, lang: str) -> tuple[str, str] | None:
    """The guided match's suggested move (the heuristic bot's choice) and why, from ``seat``'s
    view: the bot weighs fame now, the by-products gained, the school's colour and how easily
    the others copy a recipe; the reason names what of that applies to this move."""
    text = action_text(action, lang)
    if text is None:
        return None
    de = _lang(lang) == "de"
    try:
        me = view["seats"][seat]
        school = me.get("school")
        t = action.get("type")
        if t in ("design", "copy"):
            cauldron = view["cauldrons"][int(action["cauldron"])]
            got = [c for c in cauldron["byproducts"] if view["reserve"].get(c, 0) > 0]
            if t == "design":
                recipe, value = action["ingredients"], action["value"]
                size = sum(recipe.values())
                why = (f"Das höchste freie Ruhmesplättchen: {value} Ruhm sofort." if de
                       else f"The highest free value tile: {value} fame now.")
                if size >= 3:
                    why += (f" Mit {size} Ingredienzien ist die Rezeptur für die anderen teuer zu kopieren." if de
                            else f" With {size} ingredients the recipe is costly for the others to copy.")
            else:
                recipe, value = cauldron["recipe"] or {}, cauldron["value"]
                why = (f"{value} Ruhm sofort, mit Ingredienzien, die du schon hast." if de
                       else f"{value} fame now, with ingredients you already hold.")
            if school and recipe.get(school):
                name = ingredient_name(school, lang, 2)
                why += (f" Sie nutzt die Farbe deiner Schule ({name})." if de
                        else f" It uses your school's colour ({name}).")
            if got:
                names = ", ".join(ingredient_name(c, lang, 1) for c in got)
                why += f" Dazu erhältst du die Nebenprodukte: {names}." if de else f" You also gain its by-products: {names}."
            return text, why
        if t == "pass":
            if action.get("take"):
                name = ingredient_name(action["take"], lang, 1)
                return text, (f"Keine Rezeptur lohnt sich gerade: 1 {name} hilft dir, dir später eine zu leisten." if de
                              else f"No recipe pays off now: 1 {name} helps you afford one later.")
            if action.get("draw"):
                return text, ("Keine Rezeptur lohnt sich gerade: 2 Ingredienzien aus dem Beutel helfen dir, dir "
                              "später eine zu leisten." if de
                              else "No recipe pays off now: 2 ingredients from the bag help you afford one later.")
            return text, ("Nichts anderes ist gerade möglich." if de else "Nothing else can be done now.")
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return None
