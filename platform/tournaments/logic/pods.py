"""Pods of 3-4 for multi-player games (Der Orden: "4 players in the preliminaries").

Players are ordered by points (random inside a score group) and cut into pods top-down, so
pods are score groups as far as sizes allow. Then players who would meet someone again are
swapped with players of the nearest other pods while that lowers the number of repeated
meetings (the smaller score spread wins among equal swaps). Pod sizes are as even as
possible between ``min_size`` and ``size``; if the field cannot be split so (5 players in
pods of 3-4), the lowest-ranked players without a bye sit out with a bye.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from .records import SWISS, Pairing, Round
from .scoring import get_scheme
from .seeding import rng_for
from .standings import standings
from .tally import met_sets, tally
from .tiebreakers import ET


def pod_sizes(n: int, size: int = 4, min_size: int = 3) -> tuple[list[int], int]:
    """(pod sizes best pod first, number of byes)."""
    if n < 2:
        return [], n
    if n <= size and n < min_size:
        return [n], 0  # too few for a full pod: everybody at one table
    for byes in range(0, n):
        m = n - byes
        pods = -(-m // size)
        base, extra = divmod(m, pods)
        if base >= min_size:
            return [base + 1] * extra + [base] * (pods - extra), byes
    return [n], 0


def pair_pods(players: Iterable[int], rounds: Sequence[Round], *, size: int = 4, min_size: int = 3,
              round_number: int | None = None, scheme="placement", tiebreakers: str = ET,
              dropped: Iterable[int] = (), disqualified: Iterable[int] = (), seed: int = 0,
              stage: str = SWISS) -> Pairing:
    dropped, disqualified = set(dropped), set(disqualified)
    active = [p for p in dict.fromkeys(players) if p not in dropped and p not in disqualified]
    if round_number is None:
        round_number = max((r.number for r in rounds), default=0) + 1
    scheme = get_scheme(scheme)
    rng = rng_for(seed, "pods", round_number)
    t = tally(rounds, scheme, active)
    sizes, nbyes = pod_sizes(len(active), size, min_size)
    byes: list[int] = []
    if nbyes:
        if not any(t[p].rounds for p in active):
            pool = list(active)
            rng.shuffle(pool)
            byes = pool[:nbyes]
        else:
            rows = standings(active, rounds, scheme=scheme, tiebreakers=tiebreakers, seed=seed, tallies=t)
            ranked = [r.user for r in rows]
            byes = sorted(reversed(ranked), key=lambda p: t[p].byes)[:nbyes]
        active = [p for p in active if p not in set(byes)]
    # Points order, random inside a score group.
    rng.shuffle(active)
    active.sort(key=lambda p: -t[p].points)
    levels = sorted({t[p].points for p in active}, reverse=True)
    gi = {p: levels.index(t[p].points) for p in active} if len(levels) < 64 else \
        {p: i for i, p in enumerate(active)}
    pods: list[list[int]] = []
    k = 0
    for s in sizes:
        pods.append(active[k:k + s])
        k += s
    met = met_sets(rounds)
    _untangle(pods, met, gi)
    tables = [tuple(p) for p in pods]
    rematches = sum(_repeats(p, met) for p in pods)
    return Pairing(round_number, stage, tables, byes, rematches)


def _repeats(pod: Sequence[int], met) -> int:
    return sum(1 for a, b in combinations(pod, 2) if b in met.get(a, ()))


def _spread(pod: Sequence[int], gi) -> int:
    vals = [gi[p] for p in pod]
    return max(vals) - min(vals)


def _untangle(pods: list[list[int]], met, gi, max_passes: int = 20) -> None:
    """Swap players between pods while the number of repeated meetings drops."""
    n = len(pods)
    for _ in range(max_passes):
        improved = False
        for a in range(n):
            for x in list(pods[a]):
                if not any(q in met.get(x, ()) for q in pods[a] if q != x):
                    continue
                best = None
                for d in range(1, n):
                    for b in (a - d, a + d):
                        if not 0 <= b < n:
                            continue
                        for y in pods[b]:
                            pa = [y if p == x else p for p in pods[a]]
                            pb = [x if p == y else p for p in pods[b]]
                            drep = (_repeats(pa, met) + _repeats(pb, met)
                                    - _repeats(pods[a], met) - _repeats(pods[b], met))
                            if drep >= 0:
                                continue
                            dspread = (_spread(pa, gi) + _spread(pb, gi)
                                       - _spread(pods[a], gi) - _spread(pods[b], gi))
                            key = (drep, dspread)
                            if best is None or key < best[0]:
                                best = (key, b, y)
                    if best is not None:
                        break
                if best is not None:
                    _, b, y = best
                    pods[a][pods[a].index(x)] = y
                    pods[b][pods[b].index(y)] = x
                    improved = True
        if not improved:
            return
