"""The cut after the Swiss stage (Eiserner Thron "Der Schnitt")."""
from __future__ import annotations

from collections.abc import Iterable, Sequence


def cut(ranking: Sequence[int], size: int, dropped: Iterable[int] = ()) -> list[int]:
    """Seeds (best first) of the top ``size`` of ``ranking`` (the Swiss standings order).

    A qualified player who dropped before the first knockout game is replaced by the next
    player in the standings, who enters as the lowest seed; those below the drop-out move
    up one seed each (the seed's example: Stefan, 6th of a top 8, drops; Eva, 9th, plays as
    8th; the old 8th becomes 7th and the old 7th 6th). Drop-outs below the cut are skipped.
    """
    dropped = set(dropped)
    top = list(ranking[:size])
    seeds = [p for p in top if p not in dropped]
    for p in ranking[size:]:
        if len(seeds) >= size:
            break
        if p not in dropped:
            seeds.append(p)
    return seeds
