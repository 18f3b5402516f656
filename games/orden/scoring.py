"""League scoring: points = rank reached; VI+ 6.5, IX+ 9.5, X 10, no rank 0."""
from __future__ import annotations

from games.orden.schema import RANKS


def league_points(rank) -> float:
    """``rank`` is a rank label ("0", "I" … "X", "VI+", "IX+") or None (no rank)."""
    if rank is None:
        return 0.0
    if rank not in RANKS:
        raise ValueError(f"unknown rank {rank!r}")
    return RANKS[rank]
