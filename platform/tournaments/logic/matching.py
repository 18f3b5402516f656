"""Maximum matching on small general graphs (Edmonds' blossom algorithm) plus the cheap
bounds the Swiss pairer uses to avoid calling it on large, dense graphs.

Pairing graphs here are *complements* of the history graph: everybody may meet everybody
except the few players already met, so they are dense. Dirac's theorem then settles most
questions without search: if every vertex of an n-vertex graph (n >= 3) has degree >= n/2
there is a Hamiltonian cycle, hence a perfect matching when n is even.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence


def dirac_size(max_forbidden: int, n: int) -> bool:
    """True if any n players whose forbidden sets have at most ``max_forbidden`` members
    surely admit floor(n/2) disjoint allowed pairs (Dirac; odd n: drop any one vertex)."""
    m = n - (n & 1)
    if m <= 0:
        return True
    return m >= 2 * max_forbidden + 2


def _blossom(n: int, adj: list[list[int]], match: list[int]) -> None:
    """Grow ``match`` (partner index or -1) to a maximum matching, in place."""

    def lca(a: int, b: int, base: list[int], parent: list[int]) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, b: int, child: int, base, parent, blossom) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    def find_path(root: int) -> int:
        used = [False] * n
        parent = [-1] * n
        base = list(range(n))
        used[root] = True
        queue = [root]
        qi = 0
        while qi < len(queue):
            v = queue[qi]
            qi += 1
            for to in adj[v]:
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    cur = lca(v, to, base, parent)
                    blossom = [False] * n
                    mark(v, cur, to, base, parent, blossom)
                    mark(to, cur, v, base, parent, blossom)
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = cur
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        return _augment(to, parent)
                    used[match[to]] = True
                    queue.append(match[to])
        return -1

    def _augment(v: int, parent: list[int]) -> int:
        while v != -1:
            pv = parent[v]
            ppv = match[pv]
            match[v] = pv
            match[pv] = v
            v = ppv
        return 0

    for root in range(n):
        if match[root] == -1:
            find_path(root)


def max_matching_size(nodes: Sequence[Hashable], allowed: Callable[[Hashable, Hashable], bool]) -> int:
    """Size of a maximum matching among ``nodes`` where ``allowed(a, b)`` says a pair may
    meet. Greedy first (usually already maximum), blossom only when greedy falls short."""
    n = len(nodes)
    if n < 2:
        return 0
    adj = [[j for j in range(n) if j != i and allowed(nodes[i], nodes[j])] for i in range(n)]
    match = [-1] * n
    size = 0
    # Fewest options first makes greedy succeed far more often.
    for i in sorted(range(n), key=lambda k: len(adj[k])):
        if match[i] == -1:
            for j in adj[i]:
                if match[j] == -1:
                    match[i], match[j] = j, i
                    size += 1
                    break
    if size == n // 2:
        return size
    _blossom(n, adj, match)
    return sum(1 for m in match if m != -1) // 2


def max_matching(nodes: Sequence[Hashable], allowed: Callable[[Hashable, Hashable], bool]) -> list[tuple]:
    """A maximum matching as a list of pairs (used by tests and small fallbacks)."""
    n = len(nodes)
    adj = [[j for j in range(n) if j != i and allowed(nodes[i], nodes[j])] for i in range(n)]
    match = [-1] * n
    _blossom(n, adj, match)
    return [(nodes[i], nodes[match[i]]) for i in range(n) if match[i] > i]
