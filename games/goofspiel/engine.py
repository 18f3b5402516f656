"""Goofspiel (GOPS, "the game of pure strategy"; Merrill Flood, 1930s): the pure rules.

Every seat holds the cards 1..N (public: everyone knows what is left in each hand). The prize
cards 1..N are shuffled face down; one is turned up. All seats bid at once by choosing a card
face down; when the last bid is in, the bids are revealed together and the highest bid takes the
prize. Equal highest bids: the prize is discarded, or (option) carried over to the next prize.
The bid cards are spent. After N rounds the most prize points wins. Rules: docs/games/goofspiel.md.

Simultaneous secret decisions: ``to_move`` is every seat that has not bid this round; a bid is
sealed (final: ``Step.reveals``, so it cannot be taken back either, and nobody reads "takes back"
in the log); nothing of a bid but the fact that it lies on the table reaches the others until all
are revealed together (the card stays in the public hand until then).
"""
from __future__ import annotations

from games.base import GameMeta, IllegalAction, Option, Step
from games.rng import Rng

ENGINE_VERSION = "1"

META = GameMeta(
    slug="goofspiel", name_en="Goofspiel", name_de="Goofspiel", min_players=2, max_players=5,
    engine_version=ENGINE_VERSION,
    options=(
        Option("cards", "int", 13, "Cards per hand", "Karten pro Hand",
               "13 is the classic game; fewer make it shorter.", "13 ist das klassische Spiel; weniger machen es kürzer.",
               min=5, max=13),
        Option("ties", "choice", "discard", "Equal highest bids", "Gleich hohe Höchstgebote",
               choices=(("discard", "the prize is discarded", "der Preis wird abgelegt"),
                        ("carry", "the prize goes to the next round", "der Preis geht in die nächste Runde"))),
    ),
    summary_en="Everyone bids a card at once for the prize turned up; the highest bid takes it.",
    summary_de="Alle bieten gleichzeitig verdeckt eine Karte um den aufgedeckten Preis; das höchste Gebot gewinnt ihn.",
)


def _copy(state: dict) -> dict:
    return {**state, "hands": [list(h) for h in state["hands"]], "bids": list(state["bids"]),
            "won": [list(w) for w in state["won"]], "prizes": list(state["prizes"]), "pot": list(state["pot"]),
            "history": list(state["history"])}


class GoofspielEngine:
    meta = META

    def setup(self, players: int, options: dict, seed: int, choices: list[dict]) -> dict:
        size = options.get("cards", 13)
        rng = Rng(seed)
        prizes = list(range(1, size + 1))
        rng.shuffle(prizes)
        return {"n": players, "size": size, "ties": options.get("ties", "discard"),
                "hands": [list(range(1, size + 1)) for _ in range(players)], "bids": [None] * players,
                "pot": [prizes[0]], "prizes": prizes[1:], "won": [[] for _ in range(players)],
                "round": 1, "history": [], "rng": rng.state}

    @staticmethod
    def finished(state: dict) -> bool:
        return not state["pot"]

    def to_move(self, state: dict) -> list[int]:
        if self.finished(state):
            return []
        return [s for s in range(state["n"]) if state["bids"][s] is None]

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.to_move(state):
            return []
        return [{"type": "bid", "card": c} for c in state["hands"][seat]]

    def apply(self, state: dict, seat: int, action: dict) -> Step:
        if not isinstance(seat, int) or not 0 <= seat < state["n"] or seat not in self.to_move(state):
            if self.finished(state):
                raise IllegalAction("The game is over.", "Das Spiel ist vorbei.")
            raise IllegalAction("Your bid for this prize lies on the table already.",
                                "Dein Gebot für diesen Preis liegt schon auf dem Tisch.")
        if not isinstance(action, dict) or action.get("type") != "bid":
            raise IllegalAction("Bid one of your cards.", "Biete eine deiner Karten.")
        card = action.get("card")
        if isinstance(card, bool) or card not in state["hands"][seat]:
            raise IllegalAction("You can bid only a card you still hold.", "Du kannst nur eine Karte bieten, die du noch hast.")
        new = _copy(state)
        new["bids"][seat] = card
        # Everyone reads that a bid lies on the table (as at a real one); only the bidder its card.
        events = [{"type": "bid_placed", "seat": seat},
                  {"type": "bid", "seat": seat, "card": card, "to": [seat]}]
        if any(b is None for b in new["bids"]):
            # Sealed: a bid is final (GOPS), so it is never taken back (Step.reveals also keeps
            # the platform's undo away, whose log line would tell the others of a changed mind).
            return Step(new, events, reveals=True)
        events += self._reveal(new)
        return Step(new, events, reveals=True)

    def _reveal(self, s: dict) -> list[dict]:
        bids, pot = s["bids"], s["pot"]
        top = max(bids)
        high = [i for i, b in enumerate(bids) if b == top]
        winner = high[0] if len(high) == 1 else None
        for i, b in enumerate(bids):
            s["hands"][i].remove(b)
        carried = []
        if winner is not None:
            s["won"][winner] += pot
        elif s["ties"] == "carry" and s["prizes"]:
            carried = list(pot)
        s["history"].append({"round": s["round"], "pot": list(pot), "bids": list(bids), "winner": winner})
        events = [{"type": "reveal", "round": s["round"], "pot": list(pot), "bids": list(bids), "winner": winner,
                   "tied": high if winner is None else [], "carried": bool(carried)}]
        s["bids"] = [None] * s["n"]
        if s["prizes"]:
            turned = s["prizes"].pop(0)
            s["pot"] = carried + [turned]
            s["round"] += 1
            events.append({"type": "prize", "card": turned, "pot": list(s["pot"])})
        else:
            s["pot"] = []
            scores = self.scores(s)
            events.append({"type": "final", "scores": scores})
        return events

    @staticmethod
    def scores(state: dict) -> list[int]:
        return [sum(w) for w in state["won"]]

    def view(self, state: dict, seat: int | None) -> dict:
        mine = seat is not None and 0 <= seat < state["n"]
        return {"players": state["n"], "size": state["size"], "ties": state["ties"], "round": state["round"],
                "finished": self.finished(state), "pot": list(state["pot"]),
                # the face-down prizes: how many, and which values (their order is the secret)
                "prizes_left": len(state["prizes"]), "prizes_unseen": sorted(state["prizes"]),
                "hands": [list(h) for h in state["hands"]], "won": [list(w) for w in state["won"]],
                "scores": self.scores(state), "bid_placed": [b is not None for b in state["bids"]],
                "my_bid": state["bids"][seat] if mine else None, "history": list(state["history"])}

    def outcome(self, state: dict) -> dict | None:
        if not self.finished(state):
            return None
        sc = self.scores(state)
        return {"placements": [{"seat": s, "place": 1 + sum(1 for o in sc if o > sc[s]), "score": sc[s]}
                               for s in range(state["n"])]}


ENGINE = GoofspielEngine()
