"""Kartenduell: a minimal game kept for the platform's own tests.

Each seat holds a hidden hand dealt from a shuffled deck; on their turn a player plays a card
face up (scoring its value) or draws one (chance: cannot be taken back). The game ends when
every seat has played three cards. Small on purpose, but it has everything the platform must
handle: hidden hands, a hidden deck order, randomness, ties.
"""
from __future__ import annotations

from games.base import GameMeta, IllegalAction, Option, Plugin, SeatChoice, Step
from games.rng import Rng

PLAYS = 3
HAND_LIMIT = 5

META = GameMeta(
    slug="kartenduell", name_en="Card duel", name_de="Kartenduell", min_players=2, max_players=4,
    engine_version="1", options=(Option("short", "bool", False, "Short deck", "Kurzes Deck"),),
    # A per-seat choice made when joining, as Der Orden's deck is; shown in the view.
    seat_choices=(SeatChoice("emblem", "Emblem", "Wappen", default="lion"),),
    summary_en="A tiny test game.", summary_de="Ein winziges Testspiel.")


class Engine:
    meta = META

    def setup(self, players, options, seed, choices):
        rng = Rng(seed)
        deck = list(range(1, 4 * players + (1 if options.get("short") else 9)))
        rng.shuffle(deck)
        hands = [sorted(deck[i * 3:(i + 1) * 3]) for i in range(players)]
        return {"players": players, "deck": deck[players * 3:], "hands": hands,
                "emblems": [c.get("emblem", "lion") for c in choices],
                "played": [[] for _ in range(players)], "turn": rng.below(players), "rng": rng.state}

    def to_move(self, state):
        return [] if self._over(state) else [state["turn"]]

    def _over(self, state):
        return all(len(p) >= PLAYS for p in state["played"])

    def legal_actions(self, state, seat):
        if seat not in self.to_move(state):
            return []
        acts = [{"type": "play", "card": c} for c in state["hands"][seat]]
        if state["deck"] and len(state["hands"][seat]) < HAND_LIMIT:
            acts.append({"type": "draw"})
        return acts

    def apply(self, state, seat, action):
        if action not in self.legal_actions(state, seat):
            if seat not in self.to_move(state):
                raise IllegalAction("It is not your turn.", "Du bist nicht am Zug.")
            raise IllegalAction(f"Not a legal move: {action!r}.", f"Kein erlaubter Zug: {action!r}.")
        new = {**state, "hands": [list(h) for h in state["hands"]], "played": [list(p) for p in state["played"]]}
        if action["type"] == "play":
            new["hands"][seat].remove(action["card"])
            new["played"][seat].append(action["card"])
            events, reveals = [{"type": "played", "seat": seat, "card": action["card"]}], False
        else:
            card, new["deck"] = state["deck"][0], state["deck"][1:]
            new["hands"][seat] = sorted(new["hands"][seat] + [card])
            events = [{"type": "drew", "seat": seat}, {"type": "drew_card", "seat": seat, "card": card, "to": [seat]}]
            reveals = True
        n = state["players"]
        nxt = (seat + 1) % n
        for _ in range(n):  # skip seats that are done
            if len(new["played"][nxt]) < PLAYS:
                break
            nxt = (nxt + 1) % n
        new["turn"] = nxt
        return Step(new, events, reveals)

    def view(self, state, seat):
        over = self._over(state)
        return {"players": state["players"], "turn": None if over else state["turn"], "deck": len(state["deck"]),
                "emblems": state["emblems"],
                "played": state["played"], "scores": [sum(p) for p in state["played"]],
                "hand_sizes": [len(h) for h in state["hands"]],
                "hand": state["hands"][seat] if seat is not None else None,
                "hands": state["hands"] if over else None}

    def outcome(self, state):
        if not self._over(state):
            return None
        scores = [sum(p) for p in state["played"]]
        return {"placements": [{"seat": s, "place": 1 + sum(1 for o in scores if o > scores[s]), "score": scores[s]}
                               for s in range(state["players"])]}


class MiniPlugin(Plugin):
    def seat_choice_values(self, key, user_id):
        return [("lion", "Lion / Löwe"), ("eagle", "Eagle / Adler")] if key == "emblem" else []

    def describe(self, event, names, lang):
        who = names[event["seat"]]
        if event["type"] == "played":
            return f"{who} spielt {event['card']}." if lang == "de" else f"{who} plays {event['card']}."
        if event["type"] == "drew_card":
            return f"Du ziehst {event['card']}." if lang == "de" else f"You draw {event['card']}."
        return f"{who} zieht eine Karte." if lang == "de" else f"{who} draws a card."

    def premove_actions(self, state, seat):
        """Waiting: the cards in hand (drawing is chance: not queued)."""
        if self.engine._over(state) or seat == state["turn"]:
            return []
        return [{"type": "play", "card": c} for c in state["hands"][seat]]

    def resample_hidden(self, state, seat, rng):
        new = {**state, "hands": [list(h) for h in state["hands"]], "rng": rng.next64()}
        if seat is None:
            deck = list(state["deck"])
            rng.shuffle(deck)
            new["deck"] = deck
            return new
        pool = new["hands"][seat] + list(state["deck"])
        rng.shuffle(pool)
        k = len(new["hands"][seat])
        new["hands"][seat], new["deck"] = sorted(pool[:k]), pool[k:]
        return new


PLUGIN = MiniPlugin(Engine())
