"""Goofspiel's words (de/en) and the board's pre-computed context. Pure: no Django."""
from __future__ import annotations

T = {
    "en": {"prize": "Prize", "prizes": "Prizes", "round": "Round", "of": "of", "face_down": "face down",
           "your_bid": "Your bid", "bid": "Bid", "choose": "Choose your bid", "waiting": "Bids on the table",
           "bid_lies": "bid lies on the table", "thinking": "still choosing", "hand": "Cards left",
           "won": "Won", "points": "points", "last": "Last round", "tie_discard": "tie: prize discarded",
           "tie_carry": "tie: prize carried over", "takes": "takes", "finished": "Final result",
           "still_down": "Still face down", "sealed": "A bid is final once placed: it cannot be taken back.",
           "your_sealed": "Your bid is on the table: {card}. Waiting for the others.",
           "rules": "Rules", "carry_rule": "Equal highest bids: the prize goes to the next round.",
           "discard_rule": "Equal highest bids: the prize is discarded."},
    "de": {"prize": "Preis", "prizes": "Preise", "round": "Runde", "of": "von", "face_down": "verdeckt",
           "your_bid": "Dein Gebot", "bid": "Bieten", "choose": "Wähle dein Gebot", "waiting": "Gebote auf dem Tisch",
           "bid_lies": "Gebot liegt auf dem Tisch", "thinking": "wählt noch", "hand": "Übrige Karten",
           "won": "Gewonnen", "points": "Punkte", "last": "Letzte Runde", "tie_discard": "Gleichstand: Preis abgelegt",
           "tie_carry": "Gleichstand: Preis geht weiter", "takes": "nimmt", "finished": "Endergebnis",
           "still_down": "Noch verdeckt", "sealed": "Ein Gebot gilt, sobald es liegt: Es kann nicht zurückgenommen werden.",
           "your_sealed": "Dein Gebot liegt auf dem Tisch: {card}. Die anderen wählen noch.",
           "rules": "Regeln", "carry_rule": "Gleich hohe Höchstgebote: Der Preis geht in die nächste Runde.",
           "discard_rule": "Gleich hohe Höchstgebote: Der Preis wird abgelegt."},
}

LOG = {
    "bid_placed": ("{who} places a bid face down.", "{who} legt verdeckt ein Gebot."),
    "bid": ("You bid {card}.", "Du bietest {card}."),
    "prize": ("Prize turned up: {card}{carried}.", "Aufgedeckter Preis: {card}{carried}."),
    "won": ("Bids for {pot}: {bids}. {who} takes {value} points.",
            "Gebote um {pot}: {bids}. {who} nimmt {value} Punkte."),
    "tie_discard": ("Bids for {pot}: {bids}. Tie between {tied}: the prize is discarded.",
                    "Gebote um {pot}: {bids}. Gleichstand zwischen {tied}: Der Preis wird abgelegt."),
    "tie_carry": ("Bids for {pot}: {bids}. Tie between {tied}: the prize goes to the next round.",
                  "Gebote um {pot}: {bids}. Gleichstand zwischen {tied}: Der Preis geht in die nächste Runde."),
    "final": ("Final score: {scores}.", "Endstand: {scores}."),
}


def _and(items: list[str], lang: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + (" und " if lang == "de" else " and ") + items[-1]


def _plus(cards: list[int]) -> str:
    return "+".join(str(c) for c in cards)


def describe(event: dict, names: list[str], lang: str) -> str:
    de = lang == "de"
    kind = event["type"]
    if kind == "reveal":
        bids = ", ".join(f"{names[s]} {b}" for s, b in enumerate(event["bids"]))
        pot = _plus(event["pot"])
        if event["winner"] is not None:
            key, extra = "won", {"who": names[event["winner"]], "value": sum(event["pot"])}
        else:
            key = "tie_carry" if event["carried"] else "tie_discard"
            extra = {"tied": _and([names[s] for s in event["tied"]], lang)}
        return LOG[key][de].format(pot=pot, bids=bids, **extra)
    if kind == "prize":
        carried = event["pot"][:-1]
        more = (f" (mit {_plus(carried)} aus der Vorrunde)" if de else f" (with {_plus(carried)} carried over)") \
            if carried else ""
        return LOG["prize"][de].format(card=event["card"], carried=more)
    if kind == "final":
        scores = ", ".join(f"{names[s]} {v}" for s, v in enumerate(event["scores"]))
        return LOG["final"][de].format(scores=scores)
    who = names[event["seat"]] if "seat" in event else ""
    return LOG[kind][de].format(who=who, **{k: v for k, v in event.items() if k != "type"})


def action_text(action: dict, lang: str) -> str | None:
    if isinstance(action, dict) and action.get("type") == "bid" and "card" in action:
        return f"{'Biete' if lang == 'de' else 'Bid'} {action['card']}"
    return None


def highlights(events: list[dict]) -> dict:
    """The last reveal: its winner, and that the pot is new."""
    for e in reversed(events):
        if e.get("type") == "reveal":
            return {"winner": e["winner"], "revealed": True}
    return {}


def board_context(view: dict, seat: int | None, legal: list[dict], lang: str, names=None) -> dict:
    t = T["de" if lang == "de" else "en"]
    n = view["players"]
    legal_cards = sorted(a["card"] for a in legal if a.get("type") == "bid")
    last = view["history"][-1] if view["history"] else None
    seats = []
    for s in range(n):
        seats.append({"seat": s, "mine": s == seat, "score": view["scores"][s], "won": view["won"][s],
                      "hand": view["hands"][s], "placed": view["bid_placed"][s],
                      "last_bid": last["bids"][s] if last else None,
                      "last_winner": last is not None and last["winner"] == s})
    me = seats[seat] if seat is not None and 0 <= seat < n else None
    sealed = t["your_sealed"].format(card=view["my_bid"]) if view["my_bid"] is not None else ""
    return {"gops": {
        "t": t, "lang": lang, "round": view["round"], "rounds": view["size"], "finished": view["finished"],
        "pot": view["pot"], "pot_value": sum(view["pot"]), "carried": view["pot"][:-1],
        "prizes_left": view["prizes_left"], "unseen": view["prizes_unseen"], "seats": seats, "me": me,
        "legal_cards": legal_cards, "my_bid": view["my_bid"], "sealed": sealed,
        "tie_rule": t["carry_rule"] if view["ties"] == "carry" else t["discard_rule"],
        "last": last, "history": list(reversed(view["history"])),
    }}
