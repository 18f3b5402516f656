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


def random_field(seed, sizes=(1, 1, 2, 3, 4, 5, 8, 24, 40), ngroups=(6, 12), rounds=(1, 3), min_n=0):
    """(groups top-down, points, met) of a made-up field: a few earlier rounds paired mostly
    inside score groups, so the small groups have met among themselves and must float."""
    import random
    rnd = random.Random(seed)
    while True:
        ng = rnd.randint(*ngroups)
        sz = [rnd.choice(sizes) for _ in range(ng)]
        if sum(sz) % 2:
            sz[-1] += 1
        if sum(sz) >= min_n:
            break
    ids = list(range(1, sum(sz) + 1))
    rnd.shuffle(ids)
    groups, k = [], 0
    for s in sz:
        groups.append(ids[k:k + s])
        k += s
    values = sorted(rnd.sample(range(0, 80), ng), reverse=True)
    points = {p: Fraction(values[i]) for i, g in enumerate(groups) for p in g}
    gi = {p: i for i, g in enumerate(groups) for p in g}
    met = {p: set() for p in ids}
    for _ in range(rnd.randint(*rounds)):
        order = sorted(ids, key=lambda p: gi[p] + rnd.random() * 1.5)
        for a, b in zip(order[::2], order[1::2]):
            met[a].add(b)
            met[b].add(a)
    return groups, points, met
