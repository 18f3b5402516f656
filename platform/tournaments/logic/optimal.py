"""Optimal Swiss pairing above the exhaustive size: minimal point differences, then floats.

Objective (after "no rematch while avoidable"): the smallest sum of point differences Σ|Δ|
over the pairs; then no pair spanning more score groups than needed (the Eiserner-Thron
procedure: the odd player of a group meets the NEXT group); then the fewest floaters (pairs
across score groups); then at random.

Three methods, cheapest first; each is optimal where it is used:

1. **Gap chain** (certified). Sort the players by points; a pairing's Σ|Δ| equals
   Σ over the gaps between neighbouring score groups of (gap × pairs crossing it), and a gap
   with an odd number of players above it is crossed at least once: the line's lower bound.
   A top-down search picks, for every odd gap, one player of the upper group and one of the
   lower group to meet, such that every group's remaining players pair up among themselves
   without rematches (Dirac's bound for big groups, blossom for small ones; failed states
   remembered). When it succeeds the pairing meets the lower bound on Σ|Δ|, spans one group
   at most and floats exactly once per odd gap (the least any pairing can): optimal, with no
   weighted matching. This is the usual case at every size.
2. **Weighted matching** (exact): a minimum-cost perfect matching (networkx's
   ``max_weight_matching``, blossom) with integer weights that rank (rematch, Σ|Δ|, span,
   floaters, random) lexicographically (a pair spanning s groups costs B^(s-1), B > pairs:
   one wider pair outweighs all narrower ones). O(n³): used on fields without a big group
   (in practice up to ~100 players) and on the segments of method 3.
3. **Segments** (exact at any size, ``decomposed``). D = the most active players anyone
   has met; D_G = the most members of group G anyone has met. G is *big* when
   |G| >= 4D + 4D_G + 4. Take any optimal pairing P (for rematches, Σ|Δ|, span):

   A. At most 2D+1 pairs cross any gap. Else two crossing pairs (a1, b1), (a2, b2)
      (a's above) exist with a1, a2 unmet and b1, b2 unmet (each pair conflicts with at
      most 2D others), and (a1, a2), (b1, b2) lowers Σ|Δ| by twice the gap, adding no rematch.
   B. No pair (a, b) skips over a big group G. By A at most 4D+2 members of G pair outside
      it, so G holds at least 2D_G+1 pairs of its own; a and b have met at most 2D_G members,
      so one pair (x, y) of G has x unmet by a and y unmet by b; (a, x), (y, b) has the same
      Σ|Δ| and replaces one span-s pair by two narrower ones.
   C. Between two neighbouring big groups only the gap's parity (0 or 1 pair) crosses:
      two crossing pairs are rerouted as in A, through own pairs of the two groups where
      a1, a2 (or b1, b2) have met (as in B), lowering Σ|Δ|.
   So P consists of: pairs inside each big group; the parity pair between neighbouring big
   groups; and, for each *segment* (a maximal run of small groups), pairs among the segment
   and its two bordering big groups, at most 2D+1 into each (A). The segments are
   independent (a gap's crossing parity is fixed by the field), so each is solved on its
   own: its players plus, for each bordering big group, 2D or 2D+1 anonymous "wildcards"
   (met nobody; the count has the gap's parity; unused wildcards pair among themselves at
   cost 0); gap chain first, weighted matching if the chain fails.
   D. Filling in: top-down, each wildcard used by a partner becomes a member of its group
   that partner has not met (greedy: at most 4D+2 links, each partner excludes at most
   D_G members); the remaining |G| − (4D+2) >= 2D_G + 2 members pair up without rematches
   (Dirac). The result costs exactly the segments' optima; by A–C no pairing costs less.
   The segments are small (the tails and the thin groups between big ones): a 10,000-player
   field is a few dozen segments of ≤ ~110 players.
"""
from __future__ import annotations

from fractions import Fraction
from math import lcm

from games.rng import Rng

from .matching import dirac_size, max_matching, max_matching_size



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


def _wildcards(parity: int, D: int) -> int:
    """Stand-ins for a big group at one of its gaps: the most pairs that can cross a gap in
    an optimum (2D+1, lemma A) with the gap's parity."""
    return 2 * D + 1 if parity else 2 * D


def decomposed(groups: list[list[int]], points: dict[int, Fraction], met: dict[int, set[int]],
               rng: Rng, D: int) -> tuple[list[tuple[int, int]], int]:
    """Method 3: exact at any size. Big groups split the field into independent segments of
    small groups; each segment is solved exactly (gap chain, else weighted matching) with
    each neighbouring big group standing in as anonymous "wildcards"; the big groups are
    filled in last. Why this keeps the optimum: the module docstring, lemmas A–D."""
    sizes = [len(g) for g in groups]
    gi = {p: i for i, g in enumerate(groups) for p in g}
    # D_G: the most members of group G any one player has met.
    dg = [0] * len(groups)
    for p in gi:
        count: dict[int, int] = {}
        for o in met.get(p, ()):
            h = gi.get(o)
            if h is not None:
                count[h] = count.get(h, 0) + 1
        for h, c in count.items():
            if c > dg[h]:
                dg[h] = c
    big = [sizes[g] >= 4 * D + 4 * dg[g] + 4 for g in range(len(groups))]
    if not any(big):
        return weighted(groups, points, met, rng)
    above = [0] * (len(groups) + 1)  # above[g]: players in groups 0..g-1
    for g, s in enumerate(sizes):
        above[g + 1] = above[g] + s

    tables: list[tuple[int, int]] = []
    links: list[list] = []  # [end, end]: an end is ("p", player) or ("g", big group)
    owner: dict[int, int] = {}  # wildcard id -> its big group
    next_id = -1

    def wild(g: int, count: int) -> list[int]:
        nonlocal next_id
        ids = list(range(next_id, next_id - count, -1))
        next_id -= count
        for w in ids:
            owner[w] = g
        return ids

    def end(x: int) -> tuple[str, int]:
        return ("g", owner[x]) if x < 0 else ("p", x)

    rematches = 0
    g = 0
    while g < len(groups):
        if big[g]:
            if g + 1 < len(groups) and big[g + 1] and above[g + 1] % 2:
                links.append([("g", g), ("g", g + 1)])  # lemma C: the parity bit, nothing more
            g += 1
            continue
        first = g
        while g < len(groups) and not big[g]:
            g += 1
        smalls = list(range(first, g))
        seg_groups: list[list[int]] = []
        seg_points: dict[int, Fraction] = {}
        if first > 0:  # the big group above
            ids = wild(first - 1, _wildcards(above[first] % 2, D))
            if ids:
                seg_groups.append(ids)
                seg_points.update((w, points[groups[first - 1][0]]) for w in ids)
        for h in smalls:
            seg_groups.append(groups[h])
            seg_points.update((p, points[p]) for p in groups[h])
        if g < len(groups):  # the big group below
            ids = wild(g, _wildcards(above[g] % 2, D))
            if ids:
                seg_groups.append(ids)
                seg_points.update((w, points[groups[g][0]]) for w in ids)
        seg_tables = GapChain(seg_groups, met, rng, D).run()
        if seg_tables is None:
            seg_tables, seg_rem = weighted(seg_groups, seg_points, met, rng)
            rematches += seg_rem
        for a, b in seg_tables:
            if a >= 0 and b >= 0:
                tables.append((a, b))
            elif not (a < 0 and b < 0 and owner[a] == owner[b]):  # a big group's own pair
                links.append([end(a), end(b)])
    # Fill in the big groups top-down (lemma D): each link end gets a member its partner has
    # not met (the partner is a real player, or a big group below that adapts later); the
    # rest of the group pairs up among themselves (Dirac).
    by_group: dict[int, list[tuple[list, int]]] = {}
    for link in links:
        for k in (0, 1):
            if link[k][0] == "g":
                by_group.setdefault(link[k][1], []).append((link, k))
    for g in sorted(by_group):
        free = _shuffled(groups[g], rng)
        used: set[int] = set()
        for link, k in by_group[g]:
            other = link[1 - k]
            forbidden = met.get(other[1], ()) if other[0] == "p" else ()
            for m in free:
                if m not in used and m not in forbidden:
                    used.add(m)
                    link[k] = ("p", m)
                    break
            else:  # pragma: no cover - excluded by the size bound (lemma D)
                raise AssertionError(f"big group {g} has no member for a link")
    for g, members in enumerate(groups):
        if big[g]:
            taken = {link[k][1] for link, k in by_group.get(g, ())}
            pairs = pair_group([p for p in members if p not in taken], met, rng, D)
            if pairs is None:  # pragma: no cover - excluded by the size bound (Dirac)
                raise AssertionError(f"big group {g} does not pair up")
            tables.extend(pairs)
    tables.extend((link[0][1], link[1][1]) for link in links)
    rematches = sum(1 for a, b in tables if b in met.get(a, ()))
    return tables, rematches
