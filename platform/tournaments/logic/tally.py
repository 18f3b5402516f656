"""Per-player aggregates of a stage's rounds: points, rounds, opponents, wins, byes."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .records import Round
from .scoring import Scheme


@dataclass
class PlayerTally:
    points: Fraction = Fraction(0)
    rounds: int = 0  # rounds with a result: finished match, bye or unpaired loss
    wins: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)  # one entry per opponent per match
    beaten: list[int] = field(default_factory=list)  # opponents of matches this player won


def tally(rounds: Sequence[Round], scheme: Scheme, players: Iterable[int] = ()) -> dict[int, PlayerTally]:
    t: dict[int, PlayerTally] = {p: PlayerTally() for p in players}

    def get(p: int) -> PlayerTally:
        x = t.get(p)
        if x is None:
            x = t[p] = PlayerTally()
        return x

    # Whole points are summed as ints and added once per player at the end: Fraction
    # additions were most of a 10,000-player round's time.
    whole: dict[int, int] = {}
    for rnd in rounds:
        for m in rnd.matches:
            if m.placements is None:
                continue
            pts = scheme.points(m)
            players = m.players
            for p in players:
                x = get(p)
                v = pts[p]
                if v.denominator == 1:
                    whole[p] = whole.get(p, 0) + v.numerator
                else:
                    x.points += v
                x.rounds += 1
                if len(players) == 2:
                    opp = (players[1],) if p == players[0] else (players[0],)
                else:
                    opp = m.opponents(p)
                x.opponents.extend(opp)
                if scheme.is_win(m, p, pts[p]):
                    x.wins += 1
                    # Head-to-head: a win over the whole table (two-player: the opponent).
                    x.beaten.extend(opp)
        bye_pts = scheme.bye(rnd.number)
        for p in rnd.byes:
            x = get(p)
            x.points += bye_pts
            x.rounds += 1
            x.byes += 1
            if scheme.bye_counts_as_win(bye_pts):
                x.wins += 1
        for p in rnd.unpaired_losses:
            x = get(p)
            x.points += scheme.unpaired_loss
            x.rounds += 1
    for p, k in whole.items():
        t[p].points += k
    return t


def met_sets(rounds: Sequence[Round]) -> dict[int, set[int]]:
    """Who sat at a table with whom (finished or not) in these rounds."""
    met: dict[int, set[int]] = {}
    for rnd in rounds:
        for m in rnd.matches:
            players = m.players
            if len(players) == 2:  # the common case, without a generator per player
                a, b = players
                if a in met:
                    met[a].add(b)
                else:
                    met[a] = {b}
                if b in met:
                    met[b].add(a)
                else:
                    met[b] = {a}
                continue
            for p in players:
                s = met.setdefault(p, set())
                s.update(q for q in players if q != p)
    return met
