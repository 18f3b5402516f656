"""Seeded random tournaments, for tests, benchmarks and demo data."""
from __future__ import annotations

from collections.abc import Sequence

from games.rng import Rng

from .records import Match, Pairing, Round


def play(pairing: Pairing, rng: Rng, *, modified_share: float = 0.1, kinds: Sequence[str] | None = None) -> Round:
    """Random results for every table of ``pairing`` (winner at random; a share of results
    are modified wins; ``kinds`` overrides the result kinds to draw from)."""
    matches = []
    for i, t in enumerate(pairing.tables):
        order = list(t)
        rng.shuffle(order)
        if kinds:
            kind = rng.choice(list(kinds))
        else:
            kind = "modified_win" if rng.random() < modified_share else "win"
        matches.append(Match(tuple(t), tuple(order), kind, table=i + 1))
    return Round(pairing.round, tuple(matches), tuple(pairing.byes), (), pairing.stage)
