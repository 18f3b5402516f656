"""Scoring schemes as data. A scheme maps a match result to tournament points per player.

Points are ``Fraction``s so that sums, averages and tie-breakers compare exactly (the seeds
use halves: 3.5, 2.5, 6.5, 9.5; a custom table may use anything)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from .records import LOSS, Match


def F(x) -> Fraction:
    # Through str so that a custom 0.1 means one tenth, not the nearest binary float.
    return x if isinstance(x, Fraction) else Fraction(str(x))


@dataclass(frozen=True)
class Scheme:
    name: str
    # result kind -> points by placement (winner first); missing places score 0
    results: Mapping[str, tuple[Fraction, ...]] = field(default_factory=dict)
    # bye points by round number within the stage (1-based); the last entry repeats
    bye_points: tuple[Fraction, ...] = (Fraction(0),)
    unpaired_loss: Fraction = Fraction(0)
    # A game counts as won with at least this many points (Mittelerde: 3.5); None means
    # "placed first in a result that is not a draw".
    win_threshold: Fraction | None = None
    bye_is_win: bool = True
    # pod size -> points by place, for placement scoring of multi-player matches
    placement: Mapping[int, tuple[Fraction, ...]] = field(default_factory=dict)
    # league scoring by rank reached: rank label -> points (used when a match carries ranks)
    rank_points: Mapping[str, Fraction] = field(default_factory=dict)

    def rank_reached(self, label) -> Fraction:
        points = self.rank_points.get("0" if label in (None, "") else label)
        if points is None:
            raise ValueError(f"scheme {self.name!r} knows no rank {label!r}")
        return points

    def bye(self, round_in_stage: int) -> Fraction:
        i = min(max(round_in_stage, 1), len(self.bye_points)) - 1
        return self.bye_points[i]

    def points(self, m: Match) -> dict[int, Fraction]:
        """Points per player for one finished match."""
        if m.placements is None:
            return {}
        if m.kind == LOSS:
            return {p: Fraction(0) for p in m.players}
        if self.rank_points and m.ranks is not None:
            return {p: self.rank_reached(m.ranks.get(p, "0")) for p in m.players}
        table = self.results.get(m.kind)
        if table is None:
            table = self.placement.get(len(m.players))
        if table is None:
            raise ValueError(f"scheme {self.name!r} cannot score a {m.kind!r} result "
                             f"with {len(m.players)} players")
        return {p: (table[i] if i < len(table) else Fraction(0)) for i, p in enumerate(m.placements)}

    def is_win(self, m: Match, player: int, points: Fraction) -> bool:
        if self.win_threshold is not None:
            return points >= self.win_threshold
        return m.kind not in ("draw", LOSS) and m.placements is not None and m.placements[0] == player

    def bye_counts_as_win(self, points: Fraction) -> bool:
        if self.win_threshold is not None:
            return self.bye_is_win and points >= self.win_threshold
        return self.bye_is_win


def _t(*xs) -> tuple[Fraction, ...]:
    return tuple(F(x) for x in xs)


# Eiserner Thron: win 5, modified win 4, loss 0; a bye is a win.
EISERNER_THRON = Scheme(
    "eiserner_thron",
    results={"win": _t(5, 0), "modified_win": _t(4, 0)},
    bye_points=_t(5),
)

# Mittelerde (section J). "win"/"modified_win" are the platform's generic results: a plain
# win scores like a 2:1 win, a win decided at the deadline like the closest win (4/2).
MITTELERDE = Scheme(
    "mittelerde",
    results={
        "ring_sealed": _t(10, 0),
        "ring": _t(7, 0),
        "win_2_1": _t(6, 0),
        "win_1_5": _t(5, 1),
        "win_close": _t(4, 2),
        "wizard_superior": _t(6, 0),
        "wizard_inferior_close": _t(5, 1),
        "wizard_inferior_far": _t(4, 2),
        "council": _t("3.5", "2.5"),
        "draw": _t(3, 3),
        "win": _t(6, 0),
        "modified_win": _t(4, 2),
    },
    bye_points=_t(6, 5, 4, 3),
    win_threshold=F("3.5"),  # "Alle Spiele bei denen man 3,5 oder mehr ... gelten als gewonnen"
    bye_is_win=False,  # a bye is not a game played
)


def mittelerde_kind(winner_vp: float, loser_vp: float) -> str:
    """Section K: the result kind from victory points (ratio winner/loser)."""
    if loser_vp <= 0:
        return "win_2_1"
    ratio = F(winner_vp) / F(loser_vp)
    if ratio >= 2:
        return "win_2_1"
    if ratio >= F("1.5"):
        return "win_1_5"
    return "win_close"


# Placement points for pods: by default a player scores the number of players placed below.
DEFAULT_PLACEMENT = {n: tuple(Fraction(n - 1 - i) for i in range(n)) for n in range(2, 9)}

PLACEMENT = Scheme("placement", placement=DEFAULT_PLACEMENT, bye_points=_t(3))

def league_scheme(rank_points: Mapping[str, object] | None = None) -> Scheme:
    """A league table: points = the rank a result carries, by the game's own table
    (``Plugin.league_rank_points``; a missing or empty rank label counts as "0"), else
    placement points. A league bye scores nothing, so it is no win either."""
    return Scheme(
        "league",
        rank_points={str(k): F(v) for k, v in (rank_points or {}).items()},
        placement=DEFAULT_PLACEMENT,  # for a game without ranks, or a match recorded without them
        bye_points=_t(0),
        bye_is_win=False,
    )


LEAGUE = league_scheme()

SCHEMES = {s.name: s for s in (EISERNER_THRON, MITTELERDE, PLACEMENT, LEAGUE)}


def get_scheme(name_or_scheme) -> Scheme:
    if isinstance(name_or_scheme, Scheme):
        return name_or_scheme
    return SCHEMES[name_or_scheme]


def custom_scheme(name: str, *, results: Mapping[str, list] | None = None,
                  placement: Mapping[int, list] | None = None, bye: list | tuple = (0,),
                  unpaired_loss=0, win_threshold=None, bye_is_win: bool = True) -> Scheme:
    """A scheme from an organizer's table (JSON-able numbers, e.g. ``{4: [5, 3, 1, 0]}``)."""
    return Scheme(
        name,
        results={k: _t(*v) for k, v in (results or {}).items()},
        bye_points=_t(*bye),
        unpaired_loss=F(unpaired_loss),
        win_threshold=None if win_threshold is None else F(win_threshold),
        bye_is_win=bye_is_win,
        placement={int(k): _t(*v) for k, v in (placement or {}).items()},
    )
