"""What a seat cannot see, redrawn: the plugin's ``resample_hidden`` and the lookahead bot's
determinization share it (a module of its own, so the bot needs no plugin import)."""
from __future__ import annotations

from games.orden.effects import copy_state


def resample_hidden(state, seat, rng):
    """A state that ``seat`` cannot tell from ``state``: its own unknown hand cards and every
    draw pile redrawn (``seat`` None: the spectators' view, only the piles)."""
    st = copy_state(state)
    if seat is not None:
        p = st["p"][seat]
        fixed = set(p["known"])
        free = [i for i in p["hand"] if i not in fixed]
        pool = free + p["deck"]
        rng.shuffle(pool)
        p["hand"] = [i for i in p["hand"] if i in fixed] + pool[:len(free)]
        p["deck"] = pool[len(free):]
        # A payment's picks are hand cards the others have not seen (public_action keeps
        # them back): redrawn with the hand, so the views are proven not to show them.
        res = st["res"]
        if res is not None and res["seat"] == seat and res["picked"]:
            res["picked"] = pool[:len(free)][:len(res["picked"])]
    for p in st["p"]:
        rng.shuffle(p["deck"])  # nobody knows any deck's order
    st["rng"] = rng.next64()
    return st
