"""The cheapest covering payment: which of the candidate cards, with those already picked, pay a
cost at the least loss. The payment prompt offers it as its first choice (``legal.pay_options``:
``{"type": "pay", "cards": [...]}``) and the ``payment`` order picks from it card by card
(``orders.payment_pick``). Pure and deterministic; it reads the state, never changes it."""
from __future__ import annotations

from itertools import combinations

from games.orden import rules as R

MAX_PAY_SEARCH = 20000  # subsets tried for the cheapest payment; beyond, a greedy fallback
LIST_SEARCH = 1500  # the same for the payment prompt's first choice, listed with every legal_actions


def card_key(state, seat, iid, zone):
    """A card's worth to keep: Auslage cards (in play) before hand cards, then by what they
    deliver in all, then the instance id (deterministic)."""
    opts = R.deliveries(state, seat, R.card(state, iid), zone)
    return (1 if zone == "auslage" else 0, max((sum(o.values()) for o in opts), default=0), iid)


def _amounts(state, seat, cost, picked, zones, ids):
    """An upper bound of what each candidate adds to the cost (1 per card for a card cost, its
    largest delivery counting every property that may help) and what is still owed: sets that
    cannot reach it are not tried."""
    if cost.what == "cards":
        return {i: 1 for i in ids}, cost.count - len(picked)
    req = dict(cost.props)
    mult = R.multipliers(state, seat)

    def most(i):
        zone = zones.get(i, "hand")
        opts = R.deliveries(state, seat, R.card(state, i), zone, mult if zone == "auslage" else None)
        return max((sum(n for p, n in o.items() if p in req or (p == "?" and p != "S") or ("?" in req and p != "S"))
                    for o in opts), default=0)
    return {i: most(i) for i in ids}, sum(req.values()) - sum(most(i) for i in picked)


def cheapest(state, seat, cost, picked, ids, limit=MAX_PAY_SEARCH, greedy=False):
    """(the cheapest set of ``ids`` that covers ``cost`` with ``picked``, cheapest card first; the
    cards' keys). The set: fewest cards, then fewest from the Auslage, then the least delivered in all
    (keep the strong cards), then the lowest ids. When more than ``limit`` sets would be tried: None,
    or with ``greedy`` the cheapest cards in turn until they cover it (a covering set, maybe not the
    cheapest: a whole Auslage of candidates would otherwise cost seconds per listing)."""
    zones = dict(R.zone_cards(state, seat, cost.zone))
    cands = sorted((card_key(state, seat, i, zones.get(i, "hand")), i) for i in ids)
    ids = [i for _, i in cands]
    key = {i: k for k, i in cands}
    amount, need = _amounts(state, seat, cost, picked, zones, ids)
    if cost.what == "cards":  # candidates already match the selector: any enough of them cover it
        def covers(combo):
            return len(picked) + len(combo) >= cost.count
    else:  # R.can_pay's test, with each card's deliveries looked up once, not per set
        mult = R.multipliers(state, seat)
        req = dict(cost.props)
        opts = {i: R.deliveries(state, seat, R.card(state, i), zones.get(i, "hand"), mult) for i in ids + list(picked)}
        fixed = [opts[i] for i in picked]

        def covers(combo):
            return R.covers(fixed + [opts[i] for i in combo], req)
    most = sorted(amount.values(), reverse=True)
    tried = 0
    for size in range(1, len(ids) + 1):
        if sum(most[:size]) < need:
            continue  # even the strongest cards of this many cannot cover it
        best = None
        for combo in combinations(ids, size):  # ids sorted cheapest first: the first hit of a size wins ties
            if sum(amount[i] for i in combo) < need:
                continue
            tried += 1
            if tried > limit:
                break
            if covers(combo):
                k = (sum(key[i][0] for i in combo), sum(key[i][1] for i in combo), sorted(combo))
                if best is None or k < best[0]:
                    best = (k, combo)
        if best is not None:
            return sorted(best[1], key=lambda i: key[i]), key
        if tried > limit:
            break
    if greedy:
        combo = []
        for i in ids:
            combo.append(i)
            if covers(combo):
                return combo, key
    return None, key
