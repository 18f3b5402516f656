"""Chip duel: a small test game for the conformance suite's own tests.

Correct as written; ``tests/conformance/test_suite_catches.py`` plants one mistake per copy
(a subclass overriding one method) and checks that the suite's matching rule fails on it.
It has every kind of secret a card game has: hidden hands (sizes public), a hidden draw pile
order, hidden chip counts (a drawn even card brings a chip nobody else sees), a card stashed
face down (its action is kept from others by ``public_action``), chance, options.
"""
from __future__ import annotations

from games.base import GameMeta, IllegalAction, Option, Plugin, Step
from games.rng import Rng

PLAYS = 3

META = GameMeta(
    slug="chipduell", name_en="Chip duel", name_de="Chipduell", min_players=2, max_players=3,
    engine_version="1",
    options=(Option("short", "bool", False, "Short deck", "Kurzes Deck"),
             Option("chips", "int", 1, "Starting chips", "Start-Chips", min=0, max=2)),
    summary_en="A test game with hidden chips.", summary_de="Ein Testspiel mit verdeckten Chips.")


def _copy(state):
    return {**state, "hands": [list(h) for h in state["hands"]], "played": [list(p) for p in state["played"]],
            "chips": list(state["chips"]), "stash": list(state["stash"]), "deck": list(state["deck"])}


class Engine:
    meta = META

    def setup(self, players, options, seed, choices):
        rng = Rng(seed)
        deck = list(range(1, 4 * players + (2 if options.get("short") else 7)))
        rng.shuffle(deck)
        hands = [sorted(deck[i * 2:(i + 1) * 2]) for i in range(players)]
        return {"players": players, "deck": deck[players * 2:], "hands": hands,
                "chips": [options.get("chips", 1)] * players, "stash": [None] * players,
                "played": [[] for _ in range(players)], "turn": 0, "rng": rng.state}

    def over(self, state):
        return all(len(p) >= PLAYS for p in state["played"])

    def to_move(self, state):
        return [] if self.over(state) else [state["turn"]]

    def legal_actions(self, state, seat):
        if seat not in self.to_move(state):
            return []
        hand = state["hands"][seat]
        acts = [{"type": "play", "card": c} for c in hand]
        if state["deck"]:
            acts.append({"type": "draw"})
        if state["stash"][seat] is None and len(hand) > 1:
            acts += [{"type": "stash", "card": c} for c in hand]
        return acts

    def apply(self, state, seat, action):
        if action not in self.legal_actions(state, seat):
            if seat not in self.to_move(state):
                raise IllegalAction("It is not your turn.", "Du bist nicht am Zug.")
            raise IllegalAction(f"Not a legal move: {action!r}.", f"Kein erlaubter Zug: {action!r}.")
        new, reveals = _copy(state), False
        kind = action["type"]
        if kind == "play":
            new["hands"][seat].remove(action["card"])
            new["played"][seat].append(action["card"])
            events = [{"type": "played", "seat": seat, "card": action["card"]}]
        elif kind == "stash":
            new["hands"][seat].remove(action["card"])
            new["stash"][seat] = action["card"]
            events = [{"type": "stashed", "seat": seat},
                      {"type": "stashed_card", "seat": seat, "card": action["card"], "to": [seat]}]
        else:
            card = new["deck"].pop(0)
            new["hands"][seat] = sorted(new["hands"][seat] + [card])
            events = self.draw_events(new, seat, card)
            if card % 2 == 0:
                new["chips"][seat] += 1
            reveals = True
        new["turn"] = self.next_turn(new, seat)
        return Step(new, events, reveals or self.over(new))  # the end opens every chip count and stash

    def draw_events(self, state, seat, card):
        return [{"type": "drew", "seat": seat},
                {"type": "drew_card", "seat": seat, "card": card, "to": [seat]}]

    def next_turn(self, state, seat):
        n = state["players"]
        nxt = (seat + 1) % n
        for _ in range(n):
            if len(state["played"][nxt]) < PLAYS:
                break
            nxt = (nxt + 1) % n
        return nxt

    def view(self, state, seat):
        over = self.over(state)
        mine = seat is not None
        return {"players": state["players"], "turn": None if over else state["turn"], "deck": len(state["deck"]),
                "played": state["played"], "hand_sizes": [len(h) for h in state["hands"]],
                "stashed": [s is not None for s in state["stash"]],
                "hand": state["hands"][seat] if mine else None,
                "chips": state["chips"][seat] if mine else None,
                "my_stash": state["stash"][seat] if mine else None,
                "all_chips": state["chips"] if over else None,
                "all_stash": state["stash"] if over else None}

    def scores(self, state):
        return [sum(p) + 2 * c + (s or 0) for p, c, s in zip(state["played"], state["chips"], state["stash"])]

    def outcome(self, state):
        if not self.over(state):
            return None
        sc = self.scores(state)
        return {"placements": [{"seat": s, "place": 1 + sum(1 for o in sc if o > sc[s]), "score": sc[s]}
                               for s in range(state["players"])]}


def _low_bot(state, seat, rng):
    """Plays its lowest card; stashes its highest once."""
    hand = state["hands"][seat]
    if state["stash"][seat] is None and len(hand) > 1:
        return {"type": "stash", "card": max(hand)}
    return {"type": "play", "card": min(hand)} if hand else {"type": "draw"}


LINES = {
    "played": ("{who} plays {card}.", "{who} spielt {card}."),
    "stashed": ("{who} puts a card aside face down.", "{who} legt eine Karte verdeckt ab."),
    "stashed_card": ("You put {card} aside.", "Du legst {card} ab."),
    "drew": ("{who} draws a card.", "{who} zieht eine Karte."),
    "drew_card": ("You draw {card}.", "Du ziehst {card}."),
}


class ChipPlugin(Plugin):
    def describe(self, event, names, lang):
        en, de = LINES[event["type"]]
        return (de if lang == "de" else en).format(who=names[event["seat"]], **event)

    def public_action(self, action, seat, viewer):
        if viewer != seat and action.get("type") == "stash":
            return {"type": "stash"}
        return action

    def bots(self):
        return {"low": _low_bot}

    def resample_hidden(self, state, seat, rng):
        new = _copy(state)
        new["rng"] = rng.next64()
        if seat is None:
            rng.shuffle(new["deck"])
            return new
        # The seat's hand, stash and pile cards mix; its chips: a drawn even card gave one, so
        # any count from the start to start + its draws... kept simple: the count is redrawn
        # between the option's start and start + 2 (the others cannot tell).
        hand, stash = new["hands"][seat], new["stash"][seat]
        pool = hand + ([stash] if stash is not None else []) + new["deck"]
        rng.shuffle(pool)
        k = len(hand)
        new["hands"][seat] = sorted(pool[:k])
        rest = pool[k:]
        if stash is not None:
            new["stash"][seat], rest = rest[0], rest[1:]
        new["deck"] = rest
        new["chips"][seat] = state["chips"][seat] + rng.below(3) - 1 if state["chips"][seat] > 0 else rng.below(2)
        return new


PLUGIN = ChipPlugin(Engine())
