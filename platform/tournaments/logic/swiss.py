"""Swiss pairing (Eiserner Thron "Schweizer System"; Mittelerde F) for two-player matches.

The rules: round 1 at random; later rounds pair within score groups at random, top group
first; the odd player of a group meets a random player of the next group; nobody meets
the same opponent twice in a stage; an odd field gives one bye.

The objective, in order: (1) no rematch within the stage, else as few as possible;
(2) the smallest sum of point differences Σ|Δpoints| over the pairs; (3) no pair spans more
score groups than needed (the odd player of a group meets the NEXT group, not one further
down, whenever the field can be paired so); (4) as few floaters as possible; (5) at random
among what is left.

Small fields (at most EXACT_UP_TO players to pair) are paired exactly: every perfect pairing
is scored by that objective (then the total span, then floaters per group top-down; branch
and bound cuts what is already worse) and one of the best is taken at random. Larger fields:
optimal.py (a certified gap chain, else an exact decomposition into segments solved by a
weighted matching), optimal for the same objective at every size.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from games.rng import Rng

from . import optimal
from .matching import dirac_size, max_matching_size
from .records import SWISS, Pairing, Round
from .scoring import get_scheme
from .seeding import rng_for
from .standings import standings
from .tally import met_sets, tally
from .tiebreakers import ET

LOWEST_RANKED = "lowest_ranked"  # Eiserner Thron: lowest-ranked player without a bye
RANDOM_LOWEST_GROUP = "random_lowest_group"  # Mittelerde C: random one of the fewest points


EXACT_UP_TO = 12  # at most 10,395 pairings of 12 players; pruned, ~1 ms typical, ~30 ms when all tie


class _Pairer:
    """The exhaustive pairer for small fields."""

    def __init__(self, order_groups: list[list[int]], met: dict[int, set[int]], rng: Rng,
                 points: dict | None = None):
        self.rng = rng
        # Points per player (for Σ|Δ|); without them the group index stands in.
        self.points = points if points is not None else {
            p: -i for i, g in enumerate(order_groups) for p in g}
        self.met = met
        self.groups = []
        self.gi = {}
        for i, g in enumerate(order_groups):
            g = list(g)
            rng.shuffle(g)
            self.groups.append(g)
            for p in g:
                self.gi[p] = i

    def exact(self) -> tuple[list[tuple[int, int]], int]:
        """Every perfect pairing, depth first, scored by the objective; a branch is cut as
        soon as its partial (rematches, Σ|Δpoints|, widest span, floaters, total span) is
        already worse than the best found (each only grows as pairs are added), so the ties
        survive."""
        nodes = [p for g in self.groups for p in g]
        gi, met, ngroups, pts = self.gi, self.met, len(self.groups), self.points
        best: list[list[tuple[int, int]]] = []
        best_cost = None
        acc: list[tuple[int, int]] = []

        def walk(rest: list[int], rematches: int, dpts, widest: int, floaters: int, distance: int) -> None:
            nonlocal best, best_cost
            head = (rematches, dpts, widest, floaters, distance)
            if best_cost is not None and head > best_cost[:5]:
                return
            if not rest:
                floats = [0] * ngroups  # per group, top group first
                for a, b in acc:
                    if gi[a] != gi[b]:
                        floats[gi[a]] += 1
                        floats[gi[b]] += 1
                cost = (*head, floats)
                if best_cost is None or cost < best_cost:
                    best, best_cost = [acc[:]], cost
                elif cost == best_cost:
                    best.append(acc[:])
                return
            first = rest[0]
            for i in range(1, len(rest)):
                b = rest[i]
                d = abs(gi[first] - gi[b])
                acc.append((first, b))
                walk(rest[1:i] + rest[i + 1:], rematches + (b in met.get(first, ())),
                     dpts + abs(pts[first] - pts[b]), max(widest, d), floaters + (d > 0), distance + d)
                acc.pop()

        walk(nodes, 0, 0, 0, 0, 0)
        chosen = best[self.rng.below(len(best))]
        tables = sorted(((a, b) if gi[a] <= gi[b] else (b, a) for a, b in chosen),
                        key=lambda t: (gi[t[0]], gi[t[1]]))
        return tables, best_cost[0]


def _pair(order_groups: list[list[int]], points, met, rng: Rng) -> tuple[list[tuple[int, int]], int]:
    """Exhaustive up to EXACT_UP_TO players; above, optimal.py's methods (see there)."""
    n = sum(len(g) for g in order_groups)
    if n <= EXACT_UP_TO:
        return _Pairer(order_groups, met, rng, points=points).exact()
    active = {p for g in order_groups for p in g}
    D = max((len(met.get(p, set()) & active) for p in active), default=0)
    gi = {p: i for i, g in enumerate(order_groups) for p in g}
    tables = optimal.GapChain(order_groups, met, rng, D).run()
    if tables is None:
        tables, rematches = optimal.decomposed(order_groups, points, met, rng, D)
    else:
        rematches = 0
    tables = sorted(((a, b) if gi[a] <= gi[b] else (b, a) for a, b in tables),
                    key=lambda tb: (gi[tb[0]], gi[tb[1]]))
    return tables, rematches


def choose_bye(active: Sequence[int], rounds: Sequence[Round], *, scheme="eiserner_thron",
               tiebreakers: str = ET, seed: int = 0, round_number: int = 1,
               policy: str = LOWEST_RANKED, met: dict[int, set[int]] | None = None,
               tallies=None) -> int:
    """The player who gets the bye when ``active`` is odd."""
    rng = rng_for(seed, "bye", round_number)
    scheme = get_scheme(scheme)
    t = tallies if tallies is not None else tally(rounds, scheme, active)
    active_set = set(active)
    if not any(t[p].rounds for p in active):
        # Round 1 (nobody has a result yet): at random.
        order = list(active)
        rng.shuffle(order)
    elif policy == LOWEST_RANKED:
        rows = standings(active, rounds, scheme=scheme, tiebreakers=tiebreakers, seed=seed,
                         tallies={p: t[p] for p in t})
        ranked = [r.user for r in rows if r.user in active_set]
        # Lowest-ranked first, those without a bye before those with one (fewest first).
        order = sorted(reversed(ranked), key=lambda p: t[p].byes)
    elif policy == RANDOM_LOWEST_GROUP:
        order = list(active)
        rng.shuffle(order)
        order.sort(key=lambda p: (t[p].byes, t[p].points))
    else:
        raise ValueError(f"unknown bye policy {policy!r}")
    if met is None:
        met = met_sets(rounds)
    # Prefer the first candidate whose bye leaves a rematch-free pairing of the rest.
    D = max((len(met.get(p, set()) & active_set) for p in active), default=0)
    if dirac_size(D, len(active) - 1):
        return order[0]

    def allowed(a, b):
        return b not in met.get(a, ())

    need = (len(active) - 1) // 2
    for b in order:
        if t[b].byes > t[order[0]].byes:
            break  # never give a second bye just to dodge a rematch
        if max_matching_size([p for p in active if p != b], allowed) == need:
            return b
    return order[0]


def pair_swiss(players: Iterable[int], rounds: Sequence[Round], *, round_number: int | None = None,
               scheme="eiserner_thron", tiebreakers: str = ET, dropped: Iterable[int] = (),
               disqualified: Iterable[int] = (), seed: int = 0, bye_policy: str = LOWEST_RANKED,
               stage: str = SWISS) -> Pairing:
    """Pair the next Swiss round.

    ``players``: everybody registered; ``rounds``: the earlier rounds of this stage (they
    define points and who met whom); dropped and disqualified players are not paired.
    Returns tables best group first; ``rematches`` is 0 unless unavoidable."""
    dropped, disqualified = set(dropped), set(disqualified)
    active = [p for p in dict.fromkeys(players) if p not in dropped and p not in disqualified]
    if round_number is None:
        round_number = max((r.number for r in rounds), default=0) + 1
    scheme = get_scheme(scheme)
    t = tally(rounds, scheme, active)
    met = met_sets(rounds)
    byes = []
    if len(active) % 2:
        b = choose_bye(active, rounds, scheme=scheme, tiebreakers=tiebreakers, seed=seed,
                       round_number=round_number, policy=bye_policy, met=met, tallies=t)
        byes.append(b)
        active = [p for p in active if p != b]
    # Score groups, highest first.
    groups: dict[Fraction, list[int]] = {}
    for p in active:
        groups.setdefault(t[p].points, []).append(p)
    order_groups = [groups[k] for k in sorted(groups, reverse=True)]
    rng = rng_for(seed, "swiss", round_number)
    points = {p: t[p].points for p in active}
    tables, rematches = _pair(order_groups, points, met, rng) if active else ([], 0)
    return Pairing(round_number, stage, [tuple(tb) for tb in tables], byes, rematches)
