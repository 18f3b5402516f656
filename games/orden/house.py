"""Where this site differs from the printed rules (the seeds): each house rule once, in German and
English, with its reason. The rules pages list them (a test keeps the pages' section equal to this
list), and the deck builder's refusals quote the ones a deck can break (``quote``)."""
from __future__ import annotations

# key: (rule de, rule en, reason de, reason en)
RULES = {
    "players": (
        "Es spielen 2 bis 6 Spieler.",
        "2 to 6 players play.",
        "Das Regelheft erlaubt beliebig viele (empfohlen 2 bis 4). Bis 6 passt der Tisch noch auf ein Telefon, "
        "und ein Spiel endet in vertretbarer Zeit; mehr Spieler machen jede Runde länger, weil jede Aktion "
        "jeden anderen nach einer Reaktion fragt.",
        "The rule book allows any number (2 to 4 recommended). Up to 6 the table still fits a phone and a game "
        "ends in reasonable time; more players make every round longer, since every action asks every other "
        "player for a reaction."),
    "copies": (
        "Ein Deck enthält jede Karte höchstens so oft wie das Basisset dieser Seite.",
        "A deck holds each card at most as often as this site's base set does.",
        "Das Regelheft hat keine Kartenliste; das Basisset dieser Seite ist der Vorrat, aus dem jedes Deck "
        "gebaut wird.",
        "The rule book has no card list; this site's base set is the stock every deck is built from."),
    "one_burg": (
        "Ein Deck enthält höchstens eine BURG.",
        "A deck holds at most one CASTLE.",
        "Das Regelheft begrenzt nur die Auslage (eine Karte je TYP liegt aus). Eine zweite BURG im Deck "
        "brachte die erste nur früher heraus: Ein Hammer-Deck mit zweien gewann 68 % gegen sein Startdeck.",
        "The rule book limits only the display (one card of a TYPE lies out). A second CASTLE in the deck only "
        "brought the first out sooner: a Hammer deck with two won 68 % against its starter deck."),
    "floors": (
        "Ein gesenktes Limit fällt nie unter seinen Boden: AUSSPIELEN und AKTIONEN nie unter 1, HANDLIMIT nie "
        "unter 4. Jede Karte, die ein Limit senkt, sagt es („aber mindestens 1“).",
        "A lowered limit never falls below its floor: PLAYS and ACTIONS never below 1, HAND LIMIT never below 4. "
        "Every card that lowers a limit says so (“but at least 1”).",
        "Mit AUSSPIELEN 0 könnte ein Spieler keine Karte mehr ausspielen, mit AKTIONEN 0 nie mehr aufsteigen; "
        "mehrere Mitspieler mit „Der Zehnt“ drückten eine Hand auf fast nichts.",
        "With PLAYS 0 a player could not play a card any more, with ACTIONS 0 never ascend again; several "
        "opponents with “The Tithe” would squeeze a hand to almost nothing."),
    "standstill": (
        "Stillstand: Kann am Ende einer Runde niemand mehr aufsteigen und niemand mehr einen Spieler absteigen "
        "lassen, endet das Spiel; die erreichten Ränge entscheiden wie nach einer festen Rundenzahl.",
        "Standstill: if at the end of a round nobody can ascend any more and nobody can still make a player "
        "descend, the game ends; the ranks reached decide, as after a fixed number of rounds.",
        "Karten verlassen das Spiel für immer (Gnade, Einspruch, die Verhinderung des Großmeisters), und kein ? "
        "steht für S: Wer alle S ausgegeben hat, kann nie mehr aufsteigen, und ohne diese Regel liefe so ein "
        "Spiel endlos.",
        "Cards leave the game for good (Grace, Objection, the Grand Master's prevention), and no ? stands for S: "
        "who has spent every S can never ascend again, and without this rule such a game would never end."),
    "deadline": (
        "Ein unbeantwortetes Reaktionsfenster verstreicht nach der Frist der Einladung (normal 24 Stunden).",
        "An unanswered reaction window passes after the invitation's deadline (24 hours by default).",
        "Beim Spiel über Tage hielte sonst ein abwesender Spieler alle anderen auf.",
        "Playing over days, an absent player would otherwise hold up everyone else."),
    "cutting": (
        "Nach dem Mischen wird nicht abgehoben.",
        "Nobody cuts a shuffled deck.",
        "Der Server mischt fair und geheim; Abheben änderte daran nichts.",
        "The server shuffles fairly and in secret; cutting would change nothing."),
}


def quote(key: str) -> tuple[str, str]:
    """(en, de): a house rule with its reason, as a refusal quotes it."""
    de, en, why_de, why_en = RULES[key]
    return (f"This site's rule (not in the printed rules): “{en}” Why: {why_en}",
            f"Regel dieser Seite (nicht im gedruckten Regelheft): „{de}“ Warum: {why_de}")
