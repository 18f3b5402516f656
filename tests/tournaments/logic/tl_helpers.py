"""Independent re-implementations used to check the logic (kept deliberately naive)."""
from fractions import Fraction
from itertools import combinations


def perfect_matchings(nodes):
    nodes = list(nodes)
    if not nodes:
        yield []
        return
    a = nodes[0]
    for i in range(1, len(nodes)):
        b = nodes[i]
        rest = nodes[1:i] + nodes[i + 1:]
        for m in perfect_matchings(rest):
            yield [(a, b)] + m


def naive_points(rounds, scheme):
    pts, rnds, opps = {}, {}, {}
    for r in rounds:
        for m in r.matches:
            if m.placements is None:
                continue
            table = scheme.results.get(m.kind) or scheme.placement[len(m.players)]
            for i, p in enumerate(m.placements):
                pts[p] = pts.get(p, 0) + Fraction(table[i] if i < len(table) else 0)
                rnds[p] = rnds.get(p, 0) + 1
                opps.setdefault(p, []).extend(q for q in m.players if q != p)
        for p in r.byes:
            pts[p] = pts.get(p, 0) + scheme.bye(r.number)
            rnds[p] = rnds.get(p, 0) + 1
        for p in r.unpaired_losses:
            pts[p] = pts.get(p, 0) + scheme.unpaired_loss
            rnds[p] = rnds.get(p, 0) + 1
    return pts, rnds, opps


def naive_sos(p, pts, rnds, opps):
    o = opps.get(p, [])
    if not o:
        return Fraction(0)
    return sum(Fraction(pts[x]) / rnds[x] for x in o) / len(o)


def naive_esos(p, pts, rnds, opps):
    o = opps.get(p, [])
    if not o:
        return Fraction(0)
    return sum(naive_sos(x, pts, rnds, opps) for x in o) / len(o)


def met_pairs(rounds):
    met = set()
    for r in rounds:
        for m in r.matches:
            for a, b in combinations(m.players, 2):
                met.add(frozenset((a, b)))
    return met
