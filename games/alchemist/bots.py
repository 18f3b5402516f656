"""Bots: fn(state, seat, rng) -> action. Pure Python.

Both bots read only what ``seat`` may know (public counts, its own screen and school), never
other screens or the bag's composition.
"""
from __future__ import annotations

from games.rng import Rng

from . import rules as R
from .engine import copy_action, design_action, pass_action


def random_bot(state: dict, seat: int, rng: Rng) -> dict:
    """Random legal move: a move type uniformly among those available (design / copy / pass),
    then a uniform choice within it (for designs: cauldron+recipe, then a free tile).
    Sampling by type avoids building up to ~2,500 design dicts per turn."""
    designs = R.design_options(state, seat)
    values = R.design_values(state) if designs else []
    copies = R.copy_options(state, seat)
    passes = R.pass_options(state)
    kinds = [k for k, ok in (("d", designs and values), ("c", copies), ("p", passes)) if ok]
    kind = rng.choice(kinds)
    if kind == "d":
        c, r = rng.choice(designs)
        return design_action(c, r, rng.choice(values))
    if kind == "c":
        return copy_action(*rng.choice(copies))
    return pass_action(*rng.choice(passes))


# How likely a recipe of this size gets copied by someone (hand-tuned guess).
_COPY_RISK = {1: 0.55, 2: 0.4, 3: 0.25, 4: 0.12, 5: 0.06}
_CUBE = 0.5       # a cube behind the screen is worth half a point at the end
_SCHOOL = 0.9     # a school-colour cube put to use helps the school's rank


def _cube_gain(state: dict, c: int) -> int:
    return sum(1 for b in R.PAIRS[c] if state["reserve"][b] > 0)


def heuristic_bot(state: dict, seat: int, rng: Rng) -> dict:
    """Greedy one-ply evaluation: fame now, cube value, school colour use, and for designs
    the risk that rivals copy the recipe for the same points."""
    school = state["school"][seat] if state["schools"] else None
    rivals = state["n"] - 1
    best, best_score = None, float("-inf")

    def consider(action, score):
        nonlocal best, best_score
        score += rng.random() * 1e-3   # break ties without a fixed bias
        if score > best_score:
            best, best_score = action, score

    values = R.design_values(state)
    if values:
        top = max(values)
        for c, r in R.design_options(state, seat):
            size = sum(r)
            risk = min(1.0, _COPY_RISK[size] * rivals)
            score = (top * (1 - 0.5 * risk) + _CUBE * (_cube_gain(state, c) - size)
                     + (_SCHOOL * r[school] if school is not None else 0))
            consider(("d", c, r, top), score)
    for c, t in R.copy_options(state, seat):
        r, value, _ = state["cauldrons"][c]
        size = sum(r)
        score = (value + _CUBE * (_cube_gain(state, c) - size)
                 + (_SCHOOL * r[school] if school is not None else 0) - 0.3)  # tribute helps a rival
        if school is not None and t == school:
            score -= 0.2   # keep the school colour out of a rival's hands... slightly
        consider(("c", c, t), score)
    for t, d in R.pass_options(state):
        if d:
            score = _CUBE * min(R.PASS_DRAW, sum(state["bag"]))
        elif t is not None:
            score = _CUBE + 0.05 * (state["reserve"][t] > 1)
        else:
            score = 0.0
        consider(("p", t, d), score)
    if best[0] == "c":
        return copy_action(best[1], best[2])
    if best[0] == "p":
        return pass_action(best[1], best[2])
    return design_action(*best[1:])


BOTS = {"random": random_bot, "heuristic": heuristic_bot}
