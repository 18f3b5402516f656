"""Der Orden: trial reaction policies for the lookahead pilot — does it spend its preventers well?

A prevented rival keeps its cards and tries again next turn, while the preventer is spent (it removes itself)
or paid for, so when to prevent is a real choice. The bots prevent a rival's ascent only from
``bots.PREVENT_FROM`` on (RANG IX: the ascents to IX+ and X), and only a rival ranked at least as high or at
VI and above. A trial policy replaces that for the trial pilot's own reactions:

- a rank line: ``eager`` (the first chance), ``mid`` (from VI), ``late`` (VII), ``later`` (VIII),
  ``last`` (IX, today's), ``never``;
- ``keep``: the first chance for a rank card's preventer (paid from the hand, it answers again next time), VII
  for one that removes or discards itself; ``price``: VII only for one paid with itself and further cards
  (Ruf zu den Waffen, Bestechung, Einspruch), the first chance for the rest (Disputation).

Played by ``bench/run.py orden compare --policy P`` (deck A's seat plays the trial pilot; ``duel`` and
``cross`` put each starter against itself or every starter). The bots the site and the report use do not
change.
"""
from __future__ import annotations

from games.orden import bots as B
from games.orden import rules as R
from games.orden.lookahead import lookahead_bot
from games.orden.roster import BOTS

LATE_FROM = 7.0  # keep / price: the spent preventers wait for the ascents from VII on
_TODAY = B._react


def _spends_itself(ab) -> bool:
    return any(c.what == "self" for c in ab.costs)


def _costs_more(ab) -> bool:
    return _spends_itself(ab) and any(c.what != "self" for c in ab.costs)


def _line(rank_from, held=None):
    """A react policy: prevent from ``rank_from`` on; the preventers ``held`` picks only from LATE_FROM on."""
    def react(state, s, acts, ev):
        pend = state["pend"]
        pa = R.ability(state, {"card": pend["card"], "ability": pend["ability"]})
        if held is not None and pa.ascends and R.rank(state, pend["seat"]) < LATE_FROM:
            acts = [a for a in acts if not R.prevents(state, a) or not held(R.ability(state, a))]
        B.PREVENT_FROM = rank_from
        return _TODAY(state, s, acts, ev)
    return react


POLICIES = {"eager": _line(0.0), "mid": _line(6.0), "late": _line(7.0), "later": _line(8.0), "last": _line(9.0),
            "never": _line(99.0), "keep": _line(0.0, _spends_itself), "price": _line(0.0, _costs_more)}


def pilot(policy):
    def bot(state, seat, rng):
        """The lookahead pilot with ``policy`` for its own reactions only: its rollouts still model the
        opponents' reactions as today's pilot plays them (a trial pilot that expected its opponents to
        play its policy would misjudge them), and nothing outside the call changes."""
        if state["phase"] != "react":
            return lookahead_bot(state, seat, rng)
        line = B.PREVENT_FROM
        B._react = POLICIES[policy]
        try:
            return lookahead_bot(state, seat, rng)  # react: the heuristic bot's call, no rollouts
        finally:
            B._react, B.PREVENT_FROM = _TODAY, line
    return bot


def register(policy):
    """The trial pilot's name in ``BOTS``; call before a runner's pool forks (its workers inherit it)."""
    name = f"lookahead-{policy}"
    BOTS[name] = pilot(policy)
    return name
