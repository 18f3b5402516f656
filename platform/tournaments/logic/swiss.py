"""Swiss pairing (Eiserner Thron "Schweizer System"; Mittelerde F) for two-player matches.

The rules: round 1 at random; later rounds pair within score groups at random, top group
first; the odd player of a group meets a random player of the next group; nobody meets
the same opponent twice in a stage; an odd field gives one bye.

The objective, in order: (1) no rematch within the stage, else as few as possible;
(2) no pair spans more score groups than needed (the odd player of a group meets the NEXT
group, not one further down, whenever the field can be paired so); (3) as few floaters as
possible; (4) at random among what is left (and, the pairer being a top-down walk on large
fields, each group keeps as many of its players together as it can).

Small fields (at most EXACT_UP_TO players to pair) are paired exactly: every perfect pairing
is scored by that objective (then the total span, then floaters per group top-down; branch
and bound cuts what is already worse) and one of the best is taken at random.

Larger fields take a top-down walk: players in score-group order (random inside a group);
the taken player v gets a random partner from its own group, else from the nearest group
below. A partner u is acceptable only if the players still unpaired can still be paired
(without a rematch, and within the span limit), i.e. the maximum matching of the rest stays
as large as before. That question is answered in O(1) by Dirac's theorem while many players
remain (each player has met at most D others, so n >= 2D+2 players always pair up) and by an
exact blossom matching on the few remaining otherwise. Among acceptable partners in a group,
those who keep the number of pairs inside their score group maximal come first, so no more
players float down than needed. If a rematch cannot be avoided at all, the same test keeps
their number minimal.

The span limit: the walk runs first without one (fast, and nearly always already within the
minimum: every span is 0 or 1). Only if it spanned further than the lower bound does the
pairer compute the smallest span k for which a rematch-free pairing exists (matching on the
graph of allowed pairs within k groups) and walk again with pairs limited to k groups; the
"rest still pairable" test then first tries a cheap certificate (group by group, each odd
group floating one player into the next, Dirac per group) and falls back to blossom.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
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


def _random_order(members: list[int], rng: Rng):
    """Members in random order, lazily: a few random probes (cheap in a big group, and the
    first probe is nearly always taken), then a shuffle of the rest."""
    n = len(members)
    if n <= 8:
        lst = members[:]
        rng.shuffle(lst)
        yield from lst
        return
    tried = set()
    for _ in range(6):
        u = members[rng.below(n)]
        if u not in tried:
            tried.add(u)
            yield u
    rest = [u for u in members if u not in tried]
    rng.shuffle(rest)
    yield from rest


EXACT_UP_TO = 12  # at most 10,395 pairings of 12 players; pruned, ~1 ms typical, ~30 ms when all tie


class _Pairer:
    def __init__(self, order_groups: list[list[int]], met: dict[int, set[int]], rng: Rng,
                 cap: int | None = None, points: dict | None = None):
        self.rng = rng
        # Points per player (for Σ|Δ|); without them the group index stands in.
        self.points = points if points is not None else {
            p: -i for i, g in enumerate(order_groups) for p in g}
        self.met = met
        self.order_groups = order_groups
        self.cap = cap  # the widest span (in score groups) a pair may have; None: any
        self._perfect_memo: dict[frozenset, bool] = {}
        active = {p for g in order_groups for p in g}
        self.D = max((len(met.get(p, set()) & active) for p in active), default=0)
        self.groups = []  # unpaired members per group, random order
        self.pos = []  # player -> index in its group's list
        self.gi = {}
        for i, g in enumerate(order_groups):
            g = list(g)
            rng.shuffle(g)
            self.groups.append(g)
            self.pos.append({p: k for k, p in enumerate(g)})
            for p in g:
                self.gi[p] = i
        self.remaining = len(active)
        self.gm = [self.mm(g) for g in self.groups]
        self.top = 0  # first group that may still have unpaired players

    def unmet(self, a: int, b: int) -> bool:
        return b not in self.met.get(a, ())

    def allowed(self, a: int, b: int) -> bool:
        if self.cap is not None and abs(self.gi[a] - self.gi[b]) > self.cap:
            return False
        return b not in self.met.get(a, ())

    def _perfect(self, nodes: list[int]) -> bool:
        """Can ``nodes`` pair up completely with allowed pairs? (Dirac first, then blossom,
        remembered: the walk asks about the same small groups again and again.)"""
        n = len(nodes)
        if n % 2:
            return False
        if dirac_size(self.D, n):
            return True
        key = frozenset(nodes)
        known = self._perfect_memo.get(key)
        if known is None:
            # Only asked about one group plus floaters from the group above: within any cap.
            known = self._perfect_memo[key] = max_matching_size(nodes, self.unmet) == n // 2
        return known

    def _chain(self, groups: list[tuple[int, list[int]]]) -> bool:
        """A cheap certificate that the players pair up within spans of 1 (so within any cap
        >= 1): top-down, each group plus the (at most two) players floated into it pairs up,
        sending at most two of its own into the very next group. ``groups``: (index,
        members) top down, none empty. False means "unknown"."""
        # From robust_from on, groups are consecutive and so big (Dirac) that each takes up to
        # two players in and sends up to two of its own on: the rest surely pairs up.
        robust, robust_from = 2 * self.D + 4, len(groups)
        while robust_from and len(groups[robust_from - 1][1]) >= robust and (
                robust_from == len(groups) or groups[robust_from][0] == groups[robust_from - 1][0] + 1):
            robust_from -= 1
        memo: dict[tuple, bool] = {}

        def ok(k: int, carry: tuple[int, ...]) -> bool:
            if k == len(groups):
                return not carry
            i, members = groups[k]
            if carry and i != groups[k - 1][0] + 1:
                return False  # the floaters would span two groups
            if k >= robust_from:
                return True
            key = (k, carry)
            if key in memo:
                return memo[key]
            union = members + list(carry)
            memo[key] = False
            for size in (0, 1, 2):  # fewest floaters first
                if size > len(members) or (len(union) - size) % 2 or (size and k == len(groups) - 1):
                    continue
                if dirac_size(self.D, len(union) - size):
                    # Any floaters will do here; a few candidates for the next group's sake.
                    outs = [tuple(members[j:j + size]) for j in range(0, min(len(members), 3 * size) or 1, size or 1)]
                else:
                    outs = list(combinations(members, size))
                for out in outs:
                    if ok(k + 1, out) and self._perfect([p for p in union if p not in out]):
                        memo[key] = True
                        return True
            return False

        return ok(0, ())

    def capped_pairable(self, out: int | None = None) -> bool:
        """Do the unpaired players (but ``out``) pair up without rematches within the cap?"""
        groups = [(i, [p for p in g if p != out] if out is not None and self.gi[out] == i else g)
                  for i, g in enumerate(self.groups) if i >= self.top]
        groups = [(i, g) for i, g in groups if g]
        if self.cap == 0:
            return all(self._perfect(g) for _, g in groups)
        if self.cap == 1 and self._chain(groups):
            return True
        nodes = [p for _, g in groups for p in g]
        return max_matching_size(nodes, self.allowed) == len(nodes) // 2

    def mm(self, nodes: list[int]) -> int:
        """Maximum rematch-free pairs among ``nodes`` (the whole rest only without a cap)."""
        if dirac_size(self.D, len(nodes)):
            return len(nodes) // 2
        return max_matching_size(nodes, self.unmet)

    def rest_without(self, *out: int) -> list[int]:
        outs = set(out)
        return [p for g in self.groups[self.top:] for p in g if p not in outs]

    def global_mm_without(self, u: int) -> int:
        # v is already removed from the groups; u is removed now.
        n = self.remaining - 1
        if self.cap is not None:  # the field pairs up perfectly within the cap (see run)
            return n // 2 if self.capped_pairable(u) else -1
        if dirac_size(self.D, n):
            return n // 2
        return self.mm(self.rest_without(u))

    def group_mm_without(self, h: int, u: int) -> int:
        g = self.groups[h]
        n = len(g) - 1
        if dirac_size(self.D, n):
            return n // 2
        return self.mm([p for p in g if p != u])

    def remove(self, p: int) -> None:
        h = self.gi[p]
        g, pos = self.groups[h], self.pos[h]
        k = pos.pop(p)
        last = g.pop()
        if last != p:
            g[k] = last
            pos[last] = k
        self.remaining -= 1

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

    def run(self) -> tuple[list[tuple[int, int]], int]:
        if self.remaining <= EXACT_UP_TO:
            return self.exact()
        # Lower bound of the span: 0 only if every group pairs up on its own.
        lower = 0 if all(len(g) % 2 == 0 and m == len(g) // 2 for g, m in zip(self.groups, self.gm)) else 1
        tables, rematches = self.walk()
        widest = max((abs(self.gi[a] - self.gi[b]) for a, b in tables), default=0)
        if rematches or widest <= lower:
            return tables, rematches
        # The walk floated further than the bound: find the smallest span that pairs the field
        # and walk again within it.
        again = _Pairer(self.order_groups, self.met, self.rng)
        for k in range(lower, widest):
            again.cap = k
            if again.capped_pairable():
                return again.walk()
        return tables, rematches

    def walk(self) -> tuple[list[tuple[int, int]], int]:
        tables = []
        rematches = 0
        if self.cap is None:
            gmm = self.mm(self.rest_without())  # max rematch-free pairs of the whole field
        else:
            gmm = self.remaining // 2
        while self.remaining >= 2:
            while not self.groups[self.top]:
                self.top += 1
            g = self.top
            v = self.groups[g][-1]
            self.remove(v)
            own_mm_with_v = self.gm[g]
            u, kind = self._choose(v, g, gmm, own_mm_with_v)
            hu = self.gi[u]
            self.remove(u)
            tables.append((v, u))
            if kind == "rematch":
                rematches += 1
            else:
                gmm -= 1
            if hu == g and kind == "keep":
                self.gm[g] = own_mm_with_v - 1
            else:
                self.gm[g] = self.mm(self.groups[g])
                self.gm[hu] = self.mm(self.groups[hu])
        return tables, rematches

    def _choose(self, v: int, g: int, gmm: int, own_mm: int) -> tuple[int, str]:
        met_v = self.met.get(v, ())
        ngroups = len(self.groups)
        last = ngroups if self.cap is None else min(ngroups, g + self.cap + 1)
        for h in range(g, last):
            members = self.groups[h]
            if not members:
                continue
            fallback = None
            for u in _random_order(members, self.rng):
                if u in met_v:
                    continue
                if self.global_mm_without(u) != gmm - 1:
                    continue
                if h == g:
                    keeps = self.group_mm_without(h, u) == own_mm - 1
                else:
                    keeps = self.group_mm_without(h, u) == self.gm[h]
                if keeps:
                    return u, "keep"
                if fallback is None:
                    fallback = u
            if fallback is not None:
                return fallback, "float"
        # No rematch-free partner keeps the rest pairable: a rematch is unavoidable. Take
        # the nearest partner that keeps the number of rematch-free pairs maximal.
        for h in range(g, ngroups):
            for u in _random_order(self.groups[h], self.rng):
                if u in met_v and self.global_mm_without(u) == gmm:
                    return u, "rematch"
                if u not in met_v and self.global_mm_without(u) == gmm - 1:
                    return u, "float"
        for h in range(g, ngroups):  # unreachable in theory; never fail to pair
            if self.groups[h]:
                u = self.groups[h][-1]
                return u, ("rematch" if u in met_v else "float")
        raise AssertionError("no partner left")


def _pair(order_groups: list[list[int]], points, met, rng: Rng) -> tuple[list[tuple[int, int]], int]:
    """Exhaustive up to EXACT_UP_TO players; above, optimal.py's methods (see there)."""
    n = sum(len(g) for g in order_groups)
    if n <= EXACT_UP_TO:
        return _Pairer(order_groups, met, rng, points=points).exact()
    active = {p for g in order_groups for p in g}
    D = max((len(met.get(p, set()) & active) for p in active), default=0)
    gi = {p: i for i, g in enumerate(order_groups) for p in g}
    chain = optimal.GapChain(order_groups, met, rng, D)
    tables = chain.run()
    if tables is None:
        if n <= optimal.MATCHING_UP_TO:
            tables, rematches = optimal.weighted(order_groups, points, met, rng)
        else:
            tables, rematches = _Pairer(order_groups, met, rng, points=points).run()
            tables = optimal.improve(tables, points, gi, met)
            rematches = sum(1 for a, b in tables if b in met.get(a, ()))
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
