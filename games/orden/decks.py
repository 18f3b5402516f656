"""Decks: Pfad + Nachziehstapel. Starter decks, validation against the Pfad rules and the
base-set card counts. Pure; a deck is ``{"pfad": [no, ...top to bottom], "cards": [no, ...]}``."""
from __future__ import annotations

from games.orden.catalog import cardset
from games.orden.schema import OPTIONAL_RANKS, RANKS


# "Alle Spieler ziehen 7 Karten vom Nachziehstapel auf die Hand": a smaller Nachziehstapel cannot
# even give the starting hand (with 0 cards a player could only end turns, forever).
MIN_CARDS = 7


class DeckError(ValueError):
    def __init__(self, en: str, de: str):
        super().__init__(en)
        self.en, self.de = en, de


def _pfad(path: str, plus6=False, plus9=False) -> list:
    cs = cardset().cards.values()
    out = []
    for label in sorted(RANKS, key=RANKS.get):
        if (label == "VI+" and not plus6) or (label == "IX+" and not plus9):
            continue
        cands = [c for c in cs if c.kind == "rank" and c.rank == label and c.path in (None, path)]
        out.append(min(cands, key=lambda c: c.no).no)
    return out


def _cards(counts: dict) -> list:
    by_name = cardset().by_name
    return [by_name[name][0].no for name, n in counts.items() for _ in range(n)]


# What every starter shares: the Orden's T cards for ranks 0–III (with the seed's opening
# Einladung → Das Versprechen), E and S for VII–X, and the interaction every path meets.
_COMMON = {"Einladung": 1, "Das Versprechen": 1, "Gehorsam": 3, "Demut": 3, "Treueschwur": 2,
           "Der Beginn des Weges": 2, "Eifer": 1, "Talent": 1, "Triumvirat": 1, "Mysterium des Lichts": 1,
           "Mysterium der Flamme": 1, "Gebet": 3, "Vision": 2, "Gnade": 2, "Erlösung": 1,
           "Einspruch": 1, "Wachsamkeit": 1, "Ordensregel": 1, "Intrige": 1}

STARTER_CARDS = {
    # Schwert: a big Auslage of K (the MENTOR doubles it) wins contests and sieges
    "schwert": {**_COMMON, "Mentor Michael": 1, "Anwerber Alfred": 1, "Kraft": 4,
                "Mächtige Statur": 4, "Waffenübung": 3, "Ruf zu den Waffen": 1, "Turnier": 1,
                "Kampfgefährte": 2, "Belagerung": 1, "Burg Falkenstein": 1},
    # Hammer: trade cards for the right one, build on a BURG, levy tolls
    "hammer": {**_COMMON, "Meisterin Hedwig": 1, "Zunftmeister Konrad": 1, "Silberling": 5,
               "Goldbarren": 4, "Werkzeug": 2, "Auftrag": 1, "Das Fundament": 1,
               "Zunftbrief": 1, "Zoll": 2, "Burg Eisenfels": 1},
    # Buch: recall from the Ablage, draw, argue other players' actions away
    "buch": {**_COMMON, "Bibliothekarin Berta": 1, "Magister Gregor": 1, "Schriftrolle": 5,
             "Foliant": 4, "Studium": 2, "Recherche": 1, "Hörsaal": 1, "Gelehrsamkeit": 1,
             "Disputation": 2, "Klosterburg": 1},
}
STARTER_NAMES = {"schwert": ("Pfad des Schwertes", "Path of the Sword"),
                 "hammer": ("Pfad des Hammers", "Path of the Hammer"),
                 "buch": ("Pfad des Buches", "Path of the Book")}


def starter(path: str) -> dict:
    # the whole Pfad the rules describe, VI+ (the path's fourth rank) and IX+ (Großmeister) included
    return {"pfad": _pfad(path, plus6=True, plus9=True), "cards": sorted(_cards(STARTER_CARDS[path]))}


def starter_ids() -> list:
    return [f"starter:{p}" for p in STARTER_CARDS]


def validate(deck: dict) -> dict:
    """Raise DeckError unless ``deck`` follows the Pfad rules and the base-set counts."""
    cs = cardset().cards
    if not isinstance(deck, dict) or set(deck) != {"pfad", "cards"}:
        raise DeckError("A deck has a Pfad and a Nachziehstapel.", "Ein Deck hat einen Pfad und einen Nachziehstapel.")
    pfad, cards = deck["pfad"], deck["cards"]
    for no in list(pfad) + list(cards):
        if isinstance(no, bool) or not isinstance(no, int) or no not in cs:
            raise DeckError(f"Unknown card {no!r}.", f"Unbekannte Karte {no!r}.")
    labels = [cs[no].rank for no in pfad]
    if any(cs[no].kind != "rank" for no in pfad):
        raise DeckError("Only rank cards belong in the Pfad.", "Nur Rangkarten gehören in den Pfad.")
    want = [r for r in sorted(RANKS, key=RANKS.get) if r not in OPTIONAL_RANKS or r in labels]
    if labels != want:
        raise DeckError("The Pfad must hold every rank once, in order (VI+ and IX+ optional).",
                        "Der Pfad muss jeden Rang genau einmal in der richtigen Reihenfolge enthalten "
                        "(VI+ und IX+ dürfen fehlen).")
    if any(cs[no].kind != "deck" for no in cards):
        raise DeckError("Rank cards belong only in the Pfad.", "Rangkarten gehören nur in den Pfad.")
    for no in set(cards):
        if cards.count(no) > cs[no].count:
            c = cs[no]
            raise DeckError(f"“{c.name.en}” may be in a deck at most {c.count} times.",
                            f"„{c.name.de}“ darf höchstens {c.count}-mal im Deck sein.")
    return {"pfad": list(pfad), "cards": sorted(cards)}


def resolve(spec) -> dict:
    """A starter id, ``{"pfad", "cards"}`` or a flat list of card numbers → a valid deck."""
    if isinstance(spec, str):
        if not spec.startswith("starter:") or spec[8:] not in STARTER_CARDS:
            raise DeckError(f"Unknown deck {spec!r}.", f"Unbekanntes Deck {spec!r}.")
        return starter(spec[8:])
    if isinstance(spec, list):
        cs = cardset().cards
        known = [no for no in spec if isinstance(no, int) and not isinstance(no, bool) and no in cs]
        if len(known) != len(spec):
            raise DeckError("Unknown card in the deck list.", "Unbekannte Karte in der Deckliste.")
        pfad = sorted((no for no in spec if cs[no].kind == "rank"), key=lambda no: cs[no].rank_value)
        spec = {"pfad": pfad, "cards": [no for no in spec if cs[no].kind == "deck"]}
    return validate(spec)


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
