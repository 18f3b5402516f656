"""Decks: Pfad + Nachziehstapel. Starter decks, validation against the Pfad rules and the
base-set card counts. Pure; a deck is ``{"pfad": [no, ...top to bottom], "cards": [no, ...]}``."""
from __future__ import annotations

from games.orden import house
from games.orden.catalog import cardset
from games.orden.schema import OPTIONAL_RANKS, RANKS

# the data version of new matches and decks (effects.V: the engine's rules version; cards
# carry the versions they belong to, schema.Card.since/until)
CURRENT = 25


# "Alle Spieler ziehen 7 Karten vom Nachziehstapel auf die Hand": a smaller Nachziehstapel cannot
# even give the starting hand (with 0 cards a player could only end turns, forever).
MIN_CARDS = 7


# Types a deck holds at most one card of, from data version 9 on. Only one BURG lies out at a time
# (the seed's rule for every type), yet a Hammer deck with a second one won 68 % (Klosterburg) and
# 62 % (Burg Falkenstein) of 200 games against its own starter: a castle with HANDLIMIT+1 out sooner
# and again after a Belagerung, for a path whose Schmied and Das Fundament read a BURG
# (docs/games/orden.md). Which castle to take is the choice.
ONE_PER_DECK = {"BURG": 9}
ONE_PER_DECK_RULE = {"BURG": "one_burg"}  # the house rule (games/orden/house.py) a refusal quotes


def one_per_deck(v=CURRENT) -> tuple:
    return tuple(t for t, since in ONE_PER_DECK.items() if v >= since)


def of_type(cards: list, t: str) -> list:
    cs = cardset().cards
    return [cs[no] for no in cards if cs[no].type == t]


def may_add(cards: list, no: int, v=CURRENT) -> bool:
    """Whether card ``no`` may join the Nachziehstapel ``cards`` (counts and one-per-deck types)."""
    c = cardset().cards[no]
    return cards.count(no) < c.count and not (c.type in one_per_deck(v) and of_type(cards, c.type))


class DeckError(ValueError):
    def __init__(self, en: str, de: str):
        super().__init__(en)
        self.en, self.de = en, de


def path_pfad(path: str, plus6=False, plus9=False, v=CURRENT) -> list:
    """The Pfad of ``path`` (its own version of IV–VI+), VI+ and IX+ only when asked for."""
    cs = cardset().cards.values()
    out = []
    for label in sorted(RANKS, key=RANKS.get):
        if (label == "VI+" and not plus6) or (label == "IX+" and not plus9):
            continue
        cands = [c for c in cs if c.kind == "rank" and c.rank == label and c.path in (None, path) and c.in_version(v)]
        out.append(min(cands, key=lambda c: c.no).no)
    return out


def current_no(name: str, v=CURRENT) -> int:
    """The number of the version of the card named ``name`` that belongs to data version ``v``."""
    return next(c.no for c in cardset().by_name[name] if c.in_version(v))


def _cards(counts: dict, v=CURRENT) -> list:
    return [current_no(name, v) for name, n in counts.items() for _ in range(n)]


# Data versions 1 and 2 (matches set up before engine version 3 replay with these).
# What every starter shared: the Orden's T cards for ranks 0–III (with the seed's opening
# Einladung → Das Versprechen), E and S for VII–X, and the interaction every path meets.
_COMMON_V2 = {"Einladung": 1, "Das Versprechen": 1, "Gehorsam": 3, "Demut": 3, "Treueschwur": 2,
           "Der Beginn des Weges": 2, "Eifer": 1, "Talent": 1, "Triumvirat": 1, "Mysterium des Lichts": 1,
           "Mysterium der Flamme": 1, "Gebet": 3, "Vision": 2, "Gnade": 2, "Erlösung": 1,
           "Einspruch": 1, "Wachsamkeit": 1, "Ordensregel": 1, "Intrige": 1}

STARTER_CARDS_V2 = {
    # Schwert: a big Auslage of K (the MENTOR doubles it) wins contests and sieges
    "schwert": {**_COMMON_V2, "Mentor Michael": 1, "Anwerber Alfred": 1, "Kraft": 4,
                "Mächtige Statur": 4, "Waffenübung": 3, "Ruf zu den Waffen": 1, "Turnier": 1,
                "Kampfgefährte": 2, "Belagerung": 1, "Burg Falkenstein": 1},
    # Hammer: trade cards for the right one, build on a BURG, levy tolls
    "hammer": {**_COMMON_V2, "Meisterin Hedwig": 1, "Zunftmeister Konrad": 1, "Silberling": 5,
               "Goldbarren": 4, "Werkzeug": 2, "Auftrag": 1, "Das Fundament": 1,
               "Zunftbrief": 1, "Zoll": 2, "Burg Eisenfels": 1},
    # Buch: recall from the Ablage, draw, argue other players' actions away
    "buch": {**_COMMON_V2, "Bibliothekarin Berta": 1, "Magister Gregor": 1, "Schriftrolle": 5,
             "Foliant": 4, "Studium": 2, "Recherche": 1, "Hörsaal": 1, "Gelehrsamkeit": 1,
             "Disputation": 2, "Klosterburg": 1},
}

# Data version 3 (the second base set). What every starter shares: the Orden's T
# cards for ranks 0–III (with the seed's opening Einladung → Das Versprechen), E and S for
# VII–X, and the interaction every path meets.
_COMMON = {"Einladung": 1, "Das Versprechen": 1, "Gehorsam": 3, "Demut": 3, "Treueschwur": 2,
           "Der Beginn des Weges": 2, "Eifer": 1, "Talent": 2, "Mysterium des Lichts": 1,
           "Mysterium der Flamme": 1, "Gebet": 3, "Vision": 2, "Gnade": 2, "Erlösung": 1,
           "Einspruch": 1, "Wachsamkeit": 1, "Ordensregel": 1, "Intrige": 1}

STARTER_CARDS = {
    # Schwert: more K on display than anyone (the MENTOR doubles it) wins contests: tilts,
    # sieges, a rival's ascent barred by a call to arms
    "schwert": {**_COMMON, "Mentor Michael": 1, "Anwerber Alfred": 1, "Kraft": 4,
                "Mächtige Statur": 4, "Waffenübung": 3, "Ruf zu den Waffen": 1, "Turnier": 1,
                "Kampfgefährte": 2, "Belagerung": 1, "Burg Falkenstein": 1},
    # Hammer: wealth spent from the hand, trade a card for the right one, build on a BURG, tithe, bribe
    "hammer": {**_COMMON, "Meisterin Hedwig": 1, "Zunftmeister Konrad": 1, "Silberling": 5,
               "Goldbarren": 4, "Werkzeug": 2, "Auftrag": 1, "Das Fundament": 1,
               "Zunftbrief": 1, "Der Zehnt": 1, "Bestechung": 1, "Burg Eisenfels": 1},
    # Buch: gather knowledge, recall from the Ablage, argue other players' actions away
    "buch": {**_COMMON, "Bibliothekarin Berta": 1, "Magister Gregor": 1, "Schriftrolle": 5,
             "Foliant": 4, "Studium": 2, "Recherche": 1, "Hörsaal": 1, "Gelehrsamkeit": 1,
             "Disputation": 2, "Klosterburg": 1},
}


def _without(counts: dict, drops: dict) -> dict:
    out = {name: n - drops.get(name, 0) for name, n in counts.items()}
    assert all(n >= 0 for n in out.values()) and set(drops) <= set(counts), drops
    return {name: n for name, n in out.items() if n}


# Data version 14: lean starters, 38 cards instead of 48. On version 13 the harness's search found a
# 35-card Hammer deck ("thin-hammer") that won 67-74 % against every starter by density alone (9x E in
# 35 cards; the starter: 11x E in 48), and the Hammer starter without ten cards beat its own 48-card
# list 76.5 %: a thick starter was the weak deck, not one card the strong one. Each drops the same six
# common cards and four of its path's; Schwert keeps its four Kraft (K on display wins its contests
# against three rivals: without two Kraft it won 25 % at 4 players).
_LEAN_COMMON = {"Demut": 3, "Intrige": 1, "Einspruch": 1, "Gebet": 1}
STARTER_CARDS_V14 = {
    "schwert": _without(STARTER_CARDS["schwert"], {**_LEAN_COMMON, "Mentor Michael": 1, "Kampfgefährte": 1,
                                                   "Waffenübung": 1, "Belagerung": 1}),
    "hammer": _without(STARTER_CARDS["hammer"], {**_LEAN_COMMON, "Silberling": 2, "Goldbarren": 1, "Der Zehnt": 1}),
    "buch": _without(STARTER_CARDS["buch"], {**_LEAN_COMMON, "Schriftrolle": 2, "Foliant": 1, "Disputation": 1}),
}


def _with(counts: dict, adds: dict) -> dict:
    return {**counts, **{name: counts.get(name, 0) + n for name, n in adds.items()}}


# Data version 15: the lean starters with T back. Every Pfad asks T up to RANG III and 2x T at VI / VI+;
# the lean cut took Demut x3, so each starter held 8 cards that deliver T (the 48-card ones: 11), and the
# search's best find on version 14 was the lean Hammer starter with a third Treueschwur and Triumvirat
# (2x ? with VI+ in the Pfad): 70.5 % against Schwert. Each starter gains both; Buch, the weakest with
# them (46.5 % against Schwert in 200 paired games), a Demut besides (52.0).
_T_BACK = {"Treueschwur": 1, "Triumvirat": 1}
STARTER_CARDS_V15 = {"schwert": _with(STARTER_CARDS_V14["schwert"], _T_BACK),
                     "hammer": _with(STARTER_CARDS_V14["hammer"], _T_BACK),
                     "buch": _with(STARTER_CARDS_V14["buch"], {**_T_BACK, "Demut": 1})}

# Data version 16: the T back without Triumvirat. Triumvirat delivers its 2x ? only with VI+ in the
# Pfad, so with one in every starter dropping VI+ also killed that card: the VI+ rows fell to 33-39.5 %
# (version 3 had taken it out of the starters for this reason). A fourth Gehorsam (2x T or ?) instead.
_T_BACK_V16 = {"Treueschwur": 1, "Gehorsam": 1}
STARTER_CARDS_V16 = {"schwert": _with(STARTER_CARDS_V14["schwert"], _T_BACK_V16),
                     "hammer": _with(STARTER_CARDS_V14["hammer"], _T_BACK_V16),
                     "buch": _with(STARTER_CARDS_V14["buch"], {**_T_BACK_V16, "Demut": 1})}

# Data version 17: Schwert without the fourth Gehorsam (39 cards). On version 16 Schwert won 37.8 % of
# 2-player and 39.5 % of 3-player tables (fair 33.3); without that card, on the same seeds, 30.8 and 35.3,
# the other paths within 2.5 of fair. A Demut for Buch's Gehorsam instead made Buch weaker (27.3 / 27.0).
STARTER_CARDS_V17 = {**STARTER_CARDS_V16, "schwert": _without(STARTER_CARDS_V16["schwert"], {"Gehorsam": 1})}
# Data version 18 changes two cards no starter holds (Zoll, Triumvirat: engine.py's "18") and keeps these lists.
# Data version 19 changes Foliant (2x W, or 2x E from RANG VII on), which Buch's starter holds three times, and
# keeps these lists.

# Data version 20: Schwert's fourth Gehorsam back (40 cards, version 16's list). Since version 19 the bots keep
# their preventers for the ascents from RANG IX on; with that pilot Schwert reached RANG IV 1.4 rounds after
# Hammer (the T ranks) and won 29.2 / 28.3 / 25.2 % of 2/3/4-player tables on version 19; with the card, on the
# same seeds, 35.0 / 30.0 / 29.2; on fresh seeds 35.8 / 33.9 / 30.2. A Demut instead: 31.8 / 27.7 at 2/3 players.
STARTER_CARDS_V20 = {**STARTER_CARDS_V17, "schwert": STARTER_CARDS_V16["schwert"]}

# Data version 21: an Einspruch in every starter (41 / 41 / 42 cards). Einspruch 275→475 prevents an ascent only
# for a player whose turn in this round is still to come (the start player never), and costs only itself. The game
# ends the moment a rank X comes on top, so when two players could finish in the same round the earlier seat won:
# on version 20 the start player won 57.5 % of 2-player and 37.7 % of 3-player tables (seeds 1-600; fair 50 and
# 33.3); with this Einspruch in every starter, on the same seeds, 49.7 and 31.5 %, every path within 1 of fair;
# version 21 on fresh seeds (1,200 games pooled): 50.6 / 32.7 / 21.3 % at 2 / 3 / 4 players.
STARTER_CARDS_V21 = {path: _with(cards, {"Einspruch": 1}) for path, cards in STARTER_CARDS_V20.items()}
# Data version 22 keeps these lists (the Stillstand rule, games/orden/standstill.py; Triumvirat, which no starter
# holds, delivers from RANG VI on).


# Data version 23: thin starters (31 / 35 / 34 cards, IX+ kept). On version 22 the harness's search found the Hammer
# starter without IX+ and eight cards ("thin-hammer-33", 33 cards): 63.7-72.5 % against every starter; the Buch starter
# with the same kind of cut won 73.0 % against its own list. The starters were too thick, not one card too strong.
# Each drops a Gehorsam, Mysterium der Flamme, Ordensregel and path cards. A thinner deck is a stronger one, so the
# paths' cuts differ: with Schwert at 32 cards and Hammer at 34 (Auftrag out too) Schwert won 26.0 % and Hammer 39.6 %
# of 3-player tables (1,200 games); this cut, on 600 other seeds: 33.3 / 30.8 / 35.8 %.
_THIN_COMMON = {"Gehorsam": 1, "Mysterium der Flamme": 1, "Ordensregel": 1}
STARTER_CARDS_V23 = {
    "schwert": _without(STARTER_CARDS_V21["schwert"], {**_THIN_COMMON, "Anwerber Alfred": 1, "Kraft": 1,
                                                       "Mächtige Statur": 1, "Waffenübung": 1, "Turnier": 1,
                                                       "Kampfgefährte": 1, "Ruf zu den Waffen": 1}),
    "hammer": _without(STARTER_CARDS_V21["hammer"], {**_THIN_COMMON, "Meisterin Hedwig": 1, "Silberling": 1,
                                                     "Werkzeug": 1}),
    "buch": _without(STARTER_CARDS_V21["buch"], {**_THIN_COMMON, "Bibliothekarin Berta": 1, "Schriftrolle": 1,
                                                 "Foliant": 1, "Studium": 1, "Recherche": 1}),
}

# Data version 24: Schwert without a third Kraft (30 cards; Hammer and Buch as on 23). On version 23 Schwert won 28.3 %
# and Hammer 37.8 % of 4-player tables (1,200 games; fair 33.3). Screens of 400 4-player games (seeds 20001-20400):
# version 23 29.2 / 37.8 / 33.0; this cut 30.8 / 33.0 / 36.2; Hammer's second Werkzeug back 29.8 / 29.5 / 40.8; a
# Mächtige Statur out instead 27.5 / 32.2 / 40.2; Turnier for a Waffenübung 26.8 / 40.8 / 32.5.
STARTER_CARDS_V24 = {**STARTER_CARDS_V23, "schwert": _without(STARTER_CARDS_V23["schwert"], {"Kraft": 1})}
# Data version 25 keeps these lists; its Einspruch (575, by name) is for the next seat to move only.

# each data version deals the newest lists at or below it
_STARTERS_SINCE = ((24, STARTER_CARDS_V24), (23, STARTER_CARDS_V23), (21, STARTER_CARDS_V21), (20, STARTER_CARDS_V20),
                   (17, STARTER_CARDS_V17), (16, STARTER_CARDS_V16), (15, STARTER_CARDS_V15), (14, STARTER_CARDS_V14),
                   (3, STARTER_CARDS), (0, STARTER_CARDS_V2))

STARTER_NAMES = {"schwert": ("Pfad des Schwertes", "Path of the Sword"),
                 "hammer": ("Pfad des Hammers", "Path of the Hammer"),
                 "buch": ("Pfad des Buches", "Path of the Book")}


def starter(path: str, v=CURRENT) -> dict:
    # the whole Pfad the rules describe, VI+ (the path's fourth rank) and IX+ (Großmeister) included
    counts = next(lists for since, lists in _STARTERS_SINCE if v >= since)[path]
    return {"pfad": path_pfad(path, plus6=True, plus9=True, v=v), "cards": sorted(_cards(counts, v))}


def starter_ids() -> list:
    return [f"starter:{p}" for p in STARTER_CARDS]


def validate(deck: dict, v=CURRENT) -> dict:
    """Raise DeckError unless ``deck`` follows the Pfad rules and the base-set counts; for the
    current data version also unless it holds only current card versions (an older version's
    set-up replays the deck it recorded, whatever its cards)."""
    cs = cardset().cards
    if not isinstance(deck, dict) or set(deck) != {"pfad", "cards"}:
        raise DeckError("A deck has a path and a draw pile.", "Ein Deck hat einen Pfad und einen Nachziehstapel.")
    pfad, cards = deck["pfad"], deck["cards"]
    for no in list(pfad) + list(cards):
        if isinstance(no, bool) or not isinstance(no, int) or no not in cs:
            raise DeckError(f"Unknown card {no!r}.", f"Unbekannte Karte {no!r}.")
    for no in list(pfad) + list(cards) if v == CURRENT else ():
        # new decks hold current card versions; a recorded match's deck (an older version's
        # set-up, replayed) is taken as it was recorded
        if not cs[no].in_version(v):
            c = cs[no]
            raise DeckError(f"“{c.name.en}” (card {no}) is an old version of the card; take the current one.",
                            f"„{c.name.de}“ (Karte {no}) ist eine alte Version der Karte; nimm die aktuelle.")
    labels = [cs[no].rank for no in pfad]
    if any(cs[no].kind != "rank" for no in pfad):
        raise DeckError("Only rank cards belong in the path.", "Nur Rangkarten gehören in den Pfad.")
    want = [r for r in sorted(RANKS, key=RANKS.get) if r not in OPTIONAL_RANKS or r in labels]
    if labels != want:
        raise DeckError("The path must hold every rank once, in order (VI+ and IX+ optional).",
                        "Der Pfad muss jeden Rang genau einmal in der richtigen Reihenfolge enthalten "
                        "(VI+ und IX+ dürfen fehlen).")
    if any(cs[no].kind != "deck" for no in cards):
        raise DeckError("Rank cards belong only in the path.", "Rangkarten gehören nur in den Pfad.")
    for no in set(cards):
        if cards.count(no) > cs[no].count:
            c = cs[no]
            en, de = ("once", "einmal") if c.count == 1 else (f"{c.count} times", f"{c.count}-mal")
            q_en, q_de = house.quote("copies")
            raise DeckError(f"“{c.name.en}” may be in a deck at most {en}. {q_en}",
                            f"„{c.name.de}“ darf höchstens {de} im Deck sein. {q_de}")
    for t in one_per_deck(v):
        held = of_type(cards, t)
        if len(held) > 1:
            names_en = ", ".join(f"“{c.name.en}”" for c in held)
            names_de = ", ".join(f"„{c.name.de}“" for c in held)
            q_en, q_de = house.quote(ONE_PER_DECK_RULE[t])
            raise DeckError(f"A deck may hold at most one {t} card ({names_en}). {q_en}",
                            f"Ein Deck darf höchstens eine {t}-Karte enthalten ({names_de}). {q_de}")
    return {"pfad": list(pfad), "cards": sorted(cards)}


def resolve(spec, v=CURRENT) -> dict:
    """A starter id, ``{"pfad", "cards"}`` or a flat list of card numbers → a valid deck (of
    data version ``v``: a match set up under an older engine version resolves its own)."""
    if isinstance(spec, str):
        if not spec.startswith("starter:") or spec[8:] not in STARTER_CARDS:
            raise DeckError(f"Unknown deck {spec!r}.", f"Unbekanntes Deck {spec!r}.")
        return starter(spec[8:], v)
    if isinstance(spec, list):
        cs = cardset().cards
        known = [no for no in spec if isinstance(no, int) and not isinstance(no, bool) and no in cs]
        if len(known) != len(spec):
            raise DeckError("Unknown card in the deck list.", "Unbekannte Karte in der Deckliste.")
        pfad = sorted((no for no in spec if cs[no].kind == "rank"), key=lambda no: cs[no].rank_value)
        spec = {"pfad": pfad, "cards": [no for no in spec if cs[no].kind == "deck"]}
    return validate(spec, v)


def with_current_versions(deck: dict) -> tuple[dict, list]:
    """A saved deck with every old card version replaced by the current card of the same name, and the
    names replaced (each once). A card renumbered since the deck was saved (its rules changed) is played
    as it is now rather than refusing the deck; a card with no current version stays, and validate()
    refuses it clearly."""
    cat = cardset()
    replaced = []

    def now(no):
        c = cat.cards.get(no) if isinstance(no, int) and not isinstance(no, bool) else None
        if c is None or c.in_version(CURRENT):
            return no
        cur = next((o.no for o in cat.by_name[c.name.de] if o.in_version(CURRENT)), None)
        if cur is None:
            return no  # retired without a successor: validate() says so
        if c.name not in replaced:
            replaced.append(c.name)
        return cur
    if not isinstance(deck, dict) or not {"pfad", "cards"} <= set(deck):
        return deck, []
    return {**deck, "pfad": [now(no) for no in deck["pfad"]], "cards": [now(no) for no in deck["cards"]]}, replaced


def playable(spec) -> dict:
    """resolve() plus what a deck needs to be played at all (saving, joining, signing up). Setting
    up a match uses resolve() alone: a match started before this rule still replays."""
    deck = resolve(spec)
    if len(deck["cards"]) < MIN_CARDS:
        n = len(deck["cards"])
        raise DeckError(f"The Nachziehstapel needs at least {MIN_CARDS} cards (the starting hand); it has {n}.",
                        f"Der Nachziehstapel braucht mindestens {MIN_CARDS} Karten (die Starthand); er hat {n}.")
    return deck


def path_of(deck: dict) -> str | None:
    cs = cardset().cards
    for no in deck["pfad"]:
        if cs[no].path:
            return cs[no].path
    return None
