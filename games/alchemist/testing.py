"""Helpers for tests and simulations: build arranged positions, play out games."""
from __future__ import annotations

from games.rng import Rng

from .bots import BOTS
from .engine import AlchemistEngine
from .rules import CIDX, COLOURS

ENGINE = AlchemistEngine()


def counts(d: dict) -> list[int]:
    return [d.get(c, 0) for c in COLOURS]


def arrange(state: dict, hands: dict | None = None, reserve: dict | None = None,
            bag: dict | None = None, **fields) -> dict:
    """A copy of ``state`` with some seats' screens / the reserve / the bag replaced; the
    difference per colour is taken from (or put back to) the out-of-game pile so the 160
    cubes stay conserved. ``fields`` overwrite top-level keys (turn, round, fame, ...)."""
    s = {k: (list(v) if isinstance(v, list) else v) for k, v in state.items()}
    s["hands"] = [list(h) for h in state["hands"]]
    removed = list(state["removed"])

    def put(old: list, new: list):
        for i in range(5):
            removed[i] -= new[i] - old[i]

    for seat, d in (hands or {}).items():
        new = counts(d)
        put(s["hands"][seat], new)
        s["hands"][seat] = new
    if reserve is not None:
        new = counts(reserve)
        put(s["reserve"], new)
        s["reserve"] = new
    if bag is not None:
        new = counts(bag)
        put(s["bag"], new)
        s["bag"] = new
    s["removed"] = removed
    s.update(fields)
    return s


def playout(players: int, seed: int, no_schools: bool = False, policies=("random",),
            on_step=None, max_turns: int = 10_000) -> dict:
    """Play one game; seat i uses policies[i % len(policies)]. Returns the final state."""
    state = ENGINE.setup(players, {"no_schools": no_schools}, seed, [{}] * players)
    rng = Rng(seed ^ 0x5EED)
    while not state["finished"]:
        seat = state["turn"]
        action = BOTS[policies[seat % len(policies)]](state, seat, rng)
        step = ENGINE.apply(state, seat, action)
        if on_step:
            on_step(state, seat, action, step)
        state = step.state
        if state["turns"] > max_turns:
            raise RuntimeError("game did not end")
    return state


__all__ = ["ENGINE", "arrange", "playout", "counts", "CIDX"]
