"""The guided match's hints: a short text for each kind of move the learner may make now, in
German and English, in the words of the game's rule documents. Pure: from the legal actions."""
from __future__ import annotations

# game -> action type -> (English, German)
HINTS: dict[str, dict[str, tuple[str, str]]] = {
    "alchemist": {
        "design": ("Design: put a new recipe (ingredients from your screen) into an empty cauldron and take a free "
                   "value tile: that much fame, and one seal. The cauldron's two by-products are forbidden in it.",
                   "Entwerfen: Lege eine neue Rezeptur (Ingredienzien von deinem Sichtschirm) in einen leeren Kessel "
                   "und nimm ein freies Ruhmesplättchen: so viel Ruhm, und ein Siegel. Die beiden Nebenprodukte des "
                   "Kessels sind darin verboten."),
        "copy": ("Copy: brew a recipe already in a cauldron. You pay its ingredients, one of them goes to its "
                 "designer as tribute, and you gain its fame.",
                 "Kopieren: Braue eine Rezeptur, die schon in einem Kessel liegt. Du bezahlst ihre Ingredienzien, "
                 "eine davon erhält der Urheber als Tribut, und du gewinnst ihren Ruhm."),
        "pass": ("Pass: take 1 ingredient from the open reserve or draw 2 from the bag, to afford a recipe later.",
                 "Passen: Nimm 1 Ingredienz aus dem offenen Vorrat oder ziehe 2 aus dem Beutel, um dir später eine "
                 "Rezeptur leisten zu können."),
    },
    "orden": {
        "play": ("Play: put a card from your hand into your display (it counts against your plays this turn).",
                 "Ausspielen: Lege eine Karte aus deiner Hand in deine Auslage (das zählt gegen deine Ausspiel-"
                 "Grenze in diesem Zug)."),
        "activate": ("Use: apply a rule of a card in your display (it counts against your actions this turn).",
                     "Anwenden: Wende eine Regel einer Karte in deiner Auslage an (das zählt gegen deine Aktionen "
                     "in diesem Zug)."),
        "end_turn": ("End turn: when you are done, end your turn; then you draw or discard down to your hand limit.",
                     "Zug beenden: Wenn du fertig bist, beende deinen Zug; danach ziehst oder legst du ab, bis du "
                     "dein Handlimit hältst."),
        "react": ("React: another player's action can be answered with a card of yours; a reaction may prevent it.",
                  "Reagieren: Auf die Aktion eines anderen kannst du mit einer deiner Karten antworten; eine "
                  "Reaktion kann sie verhindern."),
        "decline": ("Do not react: let the other player's action happen.",
                    "Nicht reagieren: Lass die Aktion des anderen geschehen."),
        "pay": ("Pay: choose cards until the cost is covered; the payment happens after that.",
                "Bezahlen: Wähle Karten, bis die Kosten gedeckt sind; bezahlt wird erst danach."),
        "choose": ("Choose: pick one card; the chosen card is shown to everyone.",
                   "Wählen: Wähle eine Karte; die gewählte Karte wird allen gezeigt."),
        "discard": ("Discard: you hold more cards than your hand limit; put cards on the discard pile.",
                    "Ablegen: Du hältst mehr Karten als dein Handlimit; lege Karten auf die Ablage."),
    },
}
INTRO: dict[str, tuple[str, str]] = {
    "alchemist": ("Become the most famous alchemist: design recipes and copy the others' recipes for fame.",
                  "Werde der berühmteste Alchemist: Entwirf Rezepturen und kopiere die der anderen, um Ruhm zu "
                  "gewinnen."),
    "orden": ("Climb the ranks of the order: play cards into your display and use their rules.",
              "Steige in den Rängen des Ordens auf: Spiele Karten in deine Auslage aus und wende ihre Regeln an."),
}
WAITING = ("The bot is thinking; its move appears here by itself.",
           "Der Bot ist am Zug; sein Zug erscheint hier von selbst.")
FINISHED = ("The match is over. Play another guided match, or invite people from the lobby.",
            "Die Partie ist vorbei. Spiele noch eine geführte Partie oder lade Mitspieler in der Lobby ein.")


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "de" else pair[0]


def hints(game: str, legal: list[dict], lang: str, *, finished: bool = False) -> dict:
    """``{"intro", "steps": [text per kind of legal move, in the order they first occur], "waiting"}``."""
    table = HINTS.get(game, {})
    kinds: list[str] = []
    for action in legal:
        kind = action.get("type") if isinstance(action, dict) else None
        if kind and kind not in kinds:
            kinds.append(kind)
    steps = [_pick(table[k], lang) for k in kinds if k in table]
    intro = _pick(INTRO[game], lang) if game in INTRO else ""
    if finished:
        return {"intro": intro, "steps": [], "waiting": _pick(FINISHED, lang)}
    return {"intro": intro, "steps": steps, "waiting": "" if legal else _pick(WAITING, lang)}


def games() -> list[str]:
    return list(HINTS)
