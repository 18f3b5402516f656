"""Tie-breakers, exactly as the seeds define them.

Eiserner Thron ("Tabellenstärke", "Erweiterte Tabellenstärke", "Zufällig"):
  SoS(p)  = sum over p's opponents o of (points(o) / rounds(o)), divided by the number of
            p's opponents;
  ESoS(p) = sum over p's opponents o of SoS(o), divided by the number of p's opponents
            (the English 2.0 wording; the German translation garbles this sentence);
  then random.
  "Opponents" are the players met at a table in a finished match, counted once per match;
  byes and unpaired losses have no opponent. rounds(o) counts every round o has a result
  for in the stage: matches, byes and unpaired losses. A player without opponents has
  SoS = ESoS = 0.

Mittelerde (section L), an elimination among players with equal points:
  1. head-to-head: games won against players of the current elimination; the most stay;
  2. number of games won (>= 3.5 points);
  3. sum of the tournament points of all one's opponents;
  the criteria are applied in order to those still in; the eliminated are ordered by the
  same procedure among themselves. Still tied after criterion 3: random (the seed's
  alternatives, play-off games or shared places, are up to the organizer).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from .seeding import derive
from .tally import PlayerTally

ET = "eiserner_thron"
ME = "mittelerde"


def sos_esos(tallies: Mapping[int, PlayerTally]) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    avg = {p: (Fraction(t.points) / t.rounds if t.rounds else Fraction(0)) for p, t in tallies.items()}
    sos: dict[int, Fraction] = {}
    for p, t in tallies.items():
        n = len(t.opponents)
        sos[p] = sum((avg[o] for o in t.opponents), Fraction(0)) / n if n else Fraction(0)
    esos: dict[int, Fraction] = {}
    for p, t in tallies.items():
        n = len(t.opponents)
        esos[p] = sum((sos[o] for o in t.opponents), Fraction(0)) / n if n else Fraction(0)
    return sos, esos


def random_key(seed: int, player: int) -> int:
    """The final random tie-break: a fixed number per player and tournament seed, so the
    order of still-tied players does not change from one standings call to the next."""
    return derive(seed, "tiebreak", player)


def mittelerde_values(p: int, group: set[int], tallies: Mapping[int, PlayerTally]) -> tuple[int, int, Fraction]:
    t = tallies[p]
    h2h = sum(1 for o in t.beaten if o in group)
    opp = sum((tallies[o].points for o in t.opponents), Fraction(0))
    return h2h, t.wins, opp


def mittelerde_order(group: Sequence[int], tallies: Mapping[int, PlayerTally],
                     tie: Callable[[int], int]) -> list[int]:
    """Order players with equal points by the Mittelerde elimination (section L)."""
    group = list(group)
    if len(group) <= 1:
        return group
    gset = set(group)
    crits = (
        lambda p: sum(1 for o in tallies[p].beaten if o in gset),
        lambda p: tallies[p].wins,
        lambda p: sum((tallies[o].points for o in tallies[p].opponents), Fraction(0)),
    )
    remaining = group
    for crit in crits:
        if len(remaining) == 1:
            break
        vals = {p: crit(p) for p in remaining}
        best = max(vals.values())
        remaining = [p for p in remaining if vals[p] == best]
    remaining = sorted(remaining, key=tie)
    rset = set(remaining)
    return remaining + mittelerde_order([p for p in group if p not in rset], tallies, tie)
