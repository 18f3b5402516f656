"""Optimal Swiss pairing above the exhaustive size: minimal point differences, then floats.

Objective (after "no rematch while avoidable"): the smallest sum of point differences Σ|Δ|
over the pairs; then no pair spanning more score groups than needed (the Eiserner-Thron
procedure: the odd player of a group meets the NEXT group); then the fewest floaters (pairs
across score groups); then at random.

Three methods, cheapest first; each is optimal where it is used:

1. **Gap chain** (certified). Sort the players by points; a pairing's Σ|Δ| is at least
   Σ over the gaps between neighbouring score groups of (gap × [an odd number of players
   above it]) — every such gap must be crossed by at least one pair — and each odd gap
   needs a floater. A top-down search picks, for every odd gap, one player of the upper
   group and one of the lower group to meet, such that every group's remaining players
   pair up among themselves without rematches (Dirac's bound for big groups, blossom for
   small ones; failed states remembered). When it succeeds the pairing meets that lower
   bound on Σ|Δ|, spans one group at most and floats exactly once per odd gap (the least any
   such pairing can), so it is optimal; no weighted matching is needed. This is the
   usual case at every size (the field's big middle groups absorb any floater).
2. **Weighted matching** (exact) when the chain fails (rematches among the few players of a
   top or bottom group force more or longer floats): a minimum-cost perfect matching
   (networkx's ``max_weight_matching``, blossom) on the field with integer weights that
   rank (rematch, Σ|Δ|, span, floaters, random) lexicographically (a pair spanning s groups
   costs B^(s-1), B > pairs: one wider pair outweighs all narrower ones). Used up to
   ``MATCHING_UP_TO`` players (O(n³)).
3. Above that size, when the chain fails: the top-down walk of swiss.py followed by a
   local search (pairs exchanging partners while that lowers (Σ|Δ|, floaters) without a
   rematch or a wider span). Not certified; the bench counts how often it is needed.
"""
from __future__ import annotations

from fractions import Fraction
from math import lcm

from games.rng import Rng

from .matching import dirac_size, max_matching, max_matching_size

MATCHING_UP_TO = 120


def _shuffled(xs, rng: Rng) -> list:
    xs = list(xs)
    rng.shuffle(xs)
    return xs


def pair_group(members: list[int], met: dict[int, set[int]], rng: Rng, D: int) -> list[tuple[int, int]] | None:
    """A random rematch-free perfect pairing of ``members`` (None if there is none)."""
    order = _shuffled(members, rng)
    if len(order) % 2:
        return None
    # Greedy over a random order nearly always succeeds in dense graphs; blossom otherwise.
    rest = order[:]
    pairs = []
    while rest:
        a = rest.pop()
        ma = met.get(a, ())
        for i in range(len(rest) - 1, -1, -1):
            if rest[i] not in ma:
                pairs.append((a, rest.pop(i)))
                break
        else:
            break
    else:
        return pairs
    pairs = max_matching(order, lambda a, b: b not in met.get(a, ()))
    return pairs if 2 * len(pairs) == len(order) else None


class GapChain:
    """Method 1: one floater pair per odd gap between neighbouring groups, or None."""

    def __init__(self, groups: list[list[int]], met: dict[int, set[int]], rng: Rng, D: int):
        self.groups, self.met, self.rng, self.D = groups, met, rng, D
        sizes = [len(g) for g in groups]
        above = 0
        self.odd = []  # odd[g]: an odd number of players in groups 0..g (gap below g must be crossed)
        for s in sizes:
            above += s
            self.odd.append(above % 2 == 1)
        self.failed: set[tuple[int, int | None]] = set()
        self._perfect_memo: dict[frozenset, bool] = {}

    def unmet(self, a, b) -> bool:
        return b not in self.met.get(a, ())

    def perfect(self, nodes: list[int]) -> bool:
        if len(nodes) % 2:
            return False
        if dirac_size(self.D, len(nodes)):
            return True
        key = frozenset(nodes)
        known = self._perfect_memo.get(key)
        if known is None:
            known = self._perfect_memo[key] = max_matching_size(nodes, self.unmet) == len(nodes) // 2
        return known

    def run(self) -> list[tuple[int, int]] | None:
        if self.odd and self.odd[-1]:
            return None
        floats: list[tuple[int, int]] = []
        outs: list[list[int]] = []  # per group: members taken out (floaters in and out)
        if not self._walk(0, None, floats, outs):
            return None
        tables = list(floats)
        for g, members in enumerate(self.groups):
            taken = set(outs[g])
            rest = [p for p in members if p not in taken]
            pairs = pair_group(rest, self.met, self.rng, self.D)
            if pairs is None:  # cannot happen: perfect() said so
                return None
            tables.extend(pairs)
        return tables

    def _walk(self, g: int, u: int | None, floats, outs) -> bool:
        """Groups g.. with ``u`` (a player of group g-1) still to be paired into group g."""
        if g == len(self.groups):
            return u is None
        if (g, u) in self.failed:
            return False
        members = self.groups[g]
        last = g == len(self.groups) - 1
        need_out = self.odd[g] and not last
        big = dirac_size(self.D, len(members) - 2 - 2)  # any two out and the rest still pairs
        vs = [None] if u is None else [v for v in _shuffled(members, self.rng) if self.unmet(u, v)]
        tried_w: set[int] = set()
        for v in vs:
            ws = [None] if not need_out else [w for w in _shuffled(members, self.rng) if w != v]
            if big and need_out:
                # In a big group every choice of w leaves the rest pairable; w only matters to
                # the group below, and D+2 distinct candidates cover its constraints.
                ws = [w for w in ws if w not in tried_w][: self.D + 2]
            for w in ws:
                if w is not None:
                    tried_w.add(w)
                rest = [p for p in members if p != v and p != w]
                if not self.perfect(rest):
                    continue
                if u is not None:
                    floats.append((u, v))
                outs.append([p for p in (v, w) if p is not None])
                if self._walk(g + 1, w, floats, outs):
                    return True
                outs.pop()
                if u is not None:
                    floats.pop()
            if big and u is not None:
                break  # in a big group one v is as good as another
        self.failed.add((g, u))
        return False


def _units(points: dict[int, Fraction]) -> tuple[dict[int, int], int]:
    den = 1
    for x in points.values():
        den = lcm(den, Fraction(x).denominator)
    return {p: int(Fraction(x) * den) for p, x in points.items()}, den


def weighted(groups: list[list[int]], points: dict[int, Fraction], met: dict[int, set[int]],
             rng: Rng) -> tuple[list[tuple[int, int]], int]:
    """Method 2: minimum-cost perfect matching (rematch, Σ|Δ|, span, floaters, random)."""
    import networkx as nx

    gi = {p: i for i, g in enumerate(groups) for p in g}
    nodes = [p for g in groups for p in g]
    n = len(nodes)
    u, _den = _units(points)
    spread = max(u.values()) - min(u.values()) if u else 0
    m2 = n * n + 1  # one floater outweighs all random jitter (< n per pair, n/2 pairs)
    base = n // 2 + 1  # a pair of span s costs base**(s-1) floaters: wider outweighs narrower
    m1 = m2 * base ** len(groups)  # one unit of Δ outweighs all spans
    big = m1 * (spread * n + 1)  # one rematch outweighs everything else
    top = big * (n + 1)
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for i, a in enumerate(nodes):
        ma = met.get(a, ())
        for b in nodes[i + 1:]:
            span = abs(gi[a] - gi[b])
            cost = (abs(u[a] - u[b]) * m1 + (base ** (span - 1) if span else 0) * m2 + rng.below(n)
                    + (big if b in ma else 0))
            graph.add_edge(a, b, weight=top - cost)
    mate = nx.max_weight_matching(graph, maxcardinality=True)
    tables = [(a, b) for a, b in mate]
    rematches = sum(1 for a, b in tables if b in met.get(a, ()))
    return tables, rematches


def improve(tables: list[tuple[int, int]], points: dict[int, Fraction], gi: dict[int, int],
            met: dict[int, set[int]]) -> list[tuple[int, int]]:
    """Method 3's local search: two pairs swap partners while (Σ|Δ|, span, floaters) drops, with no
    new rematch. Only a pair that floats can gain, so each pass tries the floating pairs
    against every pair (integer point units: no Fraction arithmetic in the loop)."""
    units, _den = _units(points)
    tables = [tuple(t) for t in tables]

    base = len(tables) + 1  # a pair of span s weighs base**(s-1): wider outweighs narrower
    big = base ** (max(gi.values(), default=0) + 1)  # one unit of Δ outweighs every span

    def cost(a, b):
        span = abs(gi[a] - gi[b])
        return abs(units[a] - units[b]) * big + (base ** (span - 1) if span else 0)

    for _ in range(200):
        by_group: dict[int, list[int]] = {}
        for j, (c, d) in enumerate(tables):
            by_group.setdefault(gi[c], []).append(j)
            if gi[d] != gi[c]:
                by_group.setdefault(gi[d], []).append(j)
        best = None
        for i, (a, b) in enumerate(tables):
            if gi[a] == gi[b]:
                continue
            ma, mb = met.get(a, ()), met.get(b, ())
            cab = cost(a, b)
            lo, hi = min(gi[a], gi[b]) - 1, max(gi[a], gi[b]) + 1
            near = {j for h in range(lo, hi + 1) for j in by_group.get(h, ())}  # only these can gain
            for j in near:
                c, d = tables[j]
                if j == i:
                    continue
                old = cab + cost(c, d)
                if c not in ma and d not in mb:
                    gain = old - cost(a, c) - cost(b, d)
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, i, j, (a, c), (b, d))
                if d not in ma and c not in mb:
                    gain = old - cost(a, d) - cost(b, c)
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, i, j, (a, d), (b, c))
        if best is None:
            break
        _gain, i, j, x, y = best
        tables[i], tables[j] = x, y
    return tables
