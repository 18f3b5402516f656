"""Swiss pairing (Eiserner Thron "Schweizer System"; Mittelerde F) for two-player matches.

The rules: round 1 at random; later rounds pair within score groups at random, top group
first; the odd player of a group meets a random player of the next group; nobody meets
the same opponent twice in a stage; an odd field gives one bye.

How the "no rematch" rule is kept without backtracking through the whole field: players
are taken top-down (score groups in descending order, random order inside a group); the
taken player v gets a random partner from its own group, else from the nearest group below.
A partner u is acceptable only if the players still unpaired can still be paired without a
rematch, i.e. the maximum rematch-free matching of the rest stays as large as before. That
question is answered in O(1) by Dirac's theorem while many players remain (each player has
met at most D others, so n >= 2D+2 players always pair up) and by an exact blossom matching
on the few remaining otherwise. Among acceptable partners in a group, those who keep the
number of pairs inside their score group maximal come first, so no more players float down
than needed. If a rematch cannot be avoided at all, the same test keeps their number
minimal.

Small fields (at most EXACT_UP_TO players to pair) are paired exactly instead: every perfect
pairing is scored (rematches, then per score group top-down how many float out, then how far)
and one of the best is taken at random. The greedy walk can float a top-group player into a
partner that forces a second one down later; with few players those interactions dominate.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from games.rng import Rng

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


EXACT_UP_TO = 12  # 10,395 pairings of 12 players: a few milliseconds


def _pairings(nodes: list[int]):
    """Every perfect pairing of an even list, as lists of pairs."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, partner in enumerate(rest):
        for tail in _pairings(rest[:i] + rest[i + 1:]):
            yield [(first, partner), *tail]


class _Pairer:
    def __init__(self, order_groups: list[list[int]], met: dict[int, set[int]], rng: Rng):
        self.rng = rng
        self.met = met
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

    def allowed(self, a: int, b: int) -> bool:
        return b not in self.met.get(a, ())

    def mm(self, nodes: list[int]) -> int:
        if dirac_size(self.D, len(nodes)):
            return len(nodes) // 2
        return max_matching_size(nodes, self.allowed)

    def rest_without(self, *out: int) -> list[int]:
        outs = set(out)
        return [p for g in self.groups[self.top:] for p in g if p not in outs]

    def global_mm_without(self, u: int) -> int:
        # v is already removed from the groups; u is removed now.
        n = self.remaining - 1
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
        nodes = [p for g in self.groups for p in g]
        gi, ngroups = self.gi, len(self.groups)
        best, best_cost = [], None
        for pairing in _pairings(nodes):
            rematches, floats, distance = 0, [0] * ngroups, 0
            for a, b in pairing:
                if not self.allowed(a, b):
                    rematches += 1
                if gi[a] != gi[b]:
                    floats[gi[a]] += 1
                    floats[gi[b]] += 1
                    distance += abs(gi[a] - gi[b])
            cost = (rematches, floats, distance)
            if best_cost is None or cost < best_cost:
                best, best_cost = [pairing], cost
            elif cost == best_cost:
                best.append(pairing)
        chosen = best[self.rng.below(len(best))]
        tables = sorted(((a, b) if gi[a] <= gi[b] else (b, a) for a, b in chosen),
                        key=lambda t: (gi[t[0]], gi[t[1]]))
        return tables, best_cost[0]

    def run(self) -> tuple[list[tuple[int, int]], int]:
        if self.remaining <= EXACT_UP_TO:
            return self.exact()
        tables = []
        rematches = 0
        gmm = self.mm(self.rest_without())  # max rematch-free pairs of the whole field
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
        for h in range(g, ngroups):
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
    tables, rematches = _Pairer(order_groups, met, rng).run() if active else ([], 0)
    return Pairing(round_number, stage, [tuple(tb) for tb in tables], byes, rematches)
