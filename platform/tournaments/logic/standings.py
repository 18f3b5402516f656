"""Standings: points, then the chosen tie-breaker list. Pure function of the rounds."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import groupby

from .records import Round
from .scoring import Scheme, get_scheme
from .tally import PlayerTally, tally
from .tiebreakers import ET, ME, mittelerde_order, mittelerde_values, random_key, sos_esos


def num(x: Fraction):
    """JSON number: int when whole, else float."""
    return int(x) if x.denominator == 1 else float(x)


@dataclass
class StandingRow:
    rank: int
    user: int
    points: Fraction
    wins: int
    tiebreakers: dict = field(default_factory=dict)  # exact values (Fraction / int)
    dropped: bool = False
    disqualified: bool = False
    rounds: int = 0
    byes: int = 0

    def to_api(self) -> dict:
        return {"rank": self.rank, "user": self.user, "points": num(self.points), "wins": self.wins,
                "tiebreakers": {k: num(Fraction(v)) for k, v in self.tiebreakers.items()},
                "dropped": self.dropped}


def standings(players: Iterable[int], rounds: Sequence[Round], *, scheme="eiserner_thron",
              tiebreakers: str = ET, dropped: Iterable[int] = (), disqualified: Iterable[int] = (),
              seed: int = 0, tallies: dict[int, PlayerTally] | None = None,
              deductions: Mapping[int, Fraction] | None = None) -> list[StandingRow]:
    """Rows best first with rank 1..n. Every player in ``players`` gets a row (and anybody
    who appears in ``rounds``). Dropped players keep their place and are flagged;
    disqualified players are flagged and listed after everybody else. ``deductions``: points
    taken off as a sanction (Mittelerde 26b); they count in the opponents' tie-breakers too."""
    scheme: Scheme = get_scheme(scheme)
    players = list(players)
    t = tallies if tallies is not None else tally(rounds, scheme, players)
    if deductions:
        t = {p: replace(x, points=x.points - Fraction(deductions.get(p, 0))) for p, x in t.items()}
    dropped = set(dropped)
    dq = set(disqualified)

    def tie(p: int) -> int:
        return random_key(seed, p)

    tb: dict[int, dict] = {}
    if tiebreakers == ET:
        sos, esos = sos_esos(t)
        order = sorted(t, key=lambda p: (p in dq, -t[p].points, -sos[p], -esos[p], tie(p)))
        for p in t:
            tb[p] = {"sos": sos[p], "esos": esos[p]}
    elif tiebreakers == ME:
        by_points = sorted(t, key=lambda p: (p in dq, -t[p].points))
        order = []
        for _, grp in groupby(by_points, key=lambda p: (p in dq, t[p].points)):
            grp = list(grp)
            gset = set(grp)
            for p in grp:
                h2h, wins, opp = mittelerde_values(p, gset, t)
                tb[p] = {"h2h": h2h, "wins": wins, "opp_points": opp}
            order.extend(mittelerde_order(grp, t, tie))
    else:
        raise ValueError(f"unknown tie-breaker list {tiebreakers!r}")
    return [StandingRow(i + 1, p, t[p].points, t[p].wins, tb[p], p in dropped or p in dq, p in dq,
                        t[p].rounds, t[p].byes)
            for i, p in enumerate(order)]


def standings_api(rows: Sequence[StandingRow]) -> list[dict]:
    return [r.to_api() for r in rows]
