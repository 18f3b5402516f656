"""Goofspiel bots. Each reads only what its seat sees (the engine's view): the public hands,
the prize(s) up, the values still face down (never their order) and its own bid.

- random: any card.
- heuristic ("match the prize"): bids the card ranked among its own cards as the prize is
  ranked among the prizes still to come.
- strong: expects the others to bid as the heuristic does and bids one above them when the
  prize is worth it; a prize it cannot win cheaply gets its lowest card.
"""
from __future__ import annotations

from .engine import ENGINE


def _seen(state: dict, seat: int) -> dict:
    return ENGINE.view(state, seat)


def _ranked(view: dict, seat: int) -> int:
    """The card of the same rank in the seat's hand as the pot's value among the prizes to come."""
    hand = sorted(view["hands"][seat])
    value = sum(view["pot"])
    coming = sorted(view["prizes_unseen"] + [value])
    rank = coming.index(value) / max(1, len(coming) - 1)
    return hand[round(rank * (len(hand) - 1))]


def random_bot(state, seat, rng):
    return {"type": "bid", "card": rng.choice(sorted(_seen(state, seat)["hands"][seat]))}


def heuristic_bot(state, seat, rng):
    return {"type": "bid", "card": _ranked(_seen(state, seat), seat)}


def strong_bot(state, seat, rng):
    """Expects every other seat to bid its ranked card (the public hands tell which), and bids
    one above the highest of them when the prize is worth it; a prize it would pay too much for,
    or cannot win, gets its lowest card."""
    view = _seen(state, seat)
    hand = sorted(view["hands"][seat])
    want = _ranked(view, seat)
    expected = max((_ranked(view, o) for o in range(view["players"]) if o != seat), default=0)
    beat = [c for c in hand if c > expected]
    value, coming = sum(view["pot"]), sorted(view["prizes_unseen"])
    worth = not coming or value >= coming[len(coming) // 2]
    if beat and (worth or beat[0] <= want + 1):
        return {"type": "bid", "card": beat[0]}
    return {"type": "bid", "card": hand[0]}


BOTS = {"random": random_bot, "heuristic": heuristic_bot, "strong": strong_bot}
