"""Plain records the logic works on. Player ids are ints; everything is JSON-able via the
``to_api``/``from_api`` helpers so the Django layer can store and serve them as they are."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

SWISS = "swiss"
KNOCKOUT = "knockout"
# A result kind every scheme knows: nobody wins, everybody scores 0 (a match nobody started
# before the round's deadline: "not starting a match within the round's time is a loss").
LOSS = "loss"


@dataclass(frozen=True)
class Match:
    """One table. ``placements`` is best first and None while the match is unfinished.
    ``kind`` names the result in the scoring scheme ("win", "modified_win", "draw", the
    Mittelerde kinds, ...). ``ranks`` carries Der Orden's rank reached per player for league
    scoring ("VII", "VI+", "0" for none)."""

    players: tuple[int, ...]
    placements: tuple[int, ...] | None = None
    kind: str = "win"
    ranks: Mapping[int, str] | None = None
    table: int = 0
    number: int = 0  # knockout match number (#1, #2, ...); 0 in Swiss

    def __post_init__(self):
        object.__setattr__(self, "players", tuple(self.players))
        if self.placements is not None:
            object.__setattr__(self, "placements", tuple(self.placements))
            if sorted(self.placements) != sorted(self.players):
                raise ValueError(f"placements {self.placements} do not match players {self.players}")

    @property
    def finished(self) -> bool:
        return self.placements is not None

    @property
    def winner(self) -> int | None:
        if self.placements is None or self.kind in ("draw", LOSS):
            return None
        return self.placements[0]

    def opponents(self, player: int) -> tuple[int, ...]:
        return tuple(p for p in self.players if p != player)

    def to_api(self) -> dict:
        result = None
        if self.placements is not None:
            result = {"placements": list(self.placements), "kind": self.kind,
                      "modified": self.kind == "modified_win"}
            if self.ranks:
                result["ranks"] = {str(k): v for k, v in self.ranks.items()}
        return {"table": self.table, "match": self.number or self.table,
                "users": list(self.players), "result": result}


@dataclass(frozen=True)
class Round:
    """A played (or just paired) round of one stage."""

    number: int
    matches: tuple[Match, ...] = ()
    byes: tuple[int, ...] = ()
    unpaired_losses: tuple[int, ...] = ()  # re-joined players, one per missed round
    stage: str = SWISS

    def __post_init__(self):
        object.__setattr__(self, "matches", tuple(self.matches))
        object.__setattr__(self, "byes", tuple(self.byes))
        object.__setattr__(self, "unpaired_losses", tuple(self.unpaired_losses))

    def to_api(self) -> dict:
        return {"round": self.number, "stage": self.stage,
                "pairings": [m.to_api() for m in self.matches], "byes": list(self.byes)}


def match(a: int, b: int, winner: int | None = None, kind: str = "win", table: int = 0) -> Match:
    """Shorthand for a two-player match; ``winner=None`` leaves it unfinished."""
    if winner is None:
        return Match((a, b), None, kind, table=table)
    loser = b if winner == a else a
    return Match((a, b), (winner, loser), kind, table=table)


def round_from_api(data: Mapping, results: Mapping[int, Mapping] | None = None) -> Round:
    """Build a Round from the REST shape ``{round, stage, pairings, byes}``; a pairing's
    ``result`` may be ``{placements, modified}`` or ``{placements, kind, ranks}``."""
    matches = []
    for p in data.get("pairings", ()):
        res = p.get("result")
        if res:
            kind = res.get("kind") or ("modified_win" if res.get("modified") else "win")
            ranks = res.get("ranks")
            ranks = {int(k): v for k, v in ranks.items()} if ranks else None
            matches.append(Match(tuple(p["users"]), tuple(res["placements"]), kind, ranks,
                                 p.get("table", 0), p.get("match", 0)))
        else:
            matches.append(Match(tuple(p["users"]), None, table=p.get("table", 0),
                                 number=p.get("match", 0)))
    return Round(data["round"], tuple(matches), tuple(data.get("byes", ())),
                 tuple(data.get("unpaired_losses", ())), data.get("stage", SWISS))


@dataclass
class Pairing:
    """Output of a pairing function: tables (players per table, table n = index + 1) and
    byes. ``rematches`` counts tables whose players met before in this stage."""

    round: int
    stage: str
    tables: list[tuple[int, ...]]
    byes: list[int] = field(default_factory=list)
    rematches: int = 0

    def to_round(self) -> Round:
        return Round(self.round, tuple(Match(t, table=i + 1, number=i + 1 if self.stage == KNOCKOUT else 0)
                                       for i, t in enumerate(self.tables)), tuple(self.byes), (), self.stage)

    def to_api(self) -> dict:
        return {"round": self.round, "stage": self.stage,
                "pairings": [{"table": i + 1, "match": i + 1, "users": list(t), "result": None}
                             for i, t in enumerate(self.tables)],
                "byes": list(self.byes)}


def active_players(players: Iterable[int], dropped: Iterable[int] = (), disqualified: Iterable[int] = ()) -> list[int]:
    out = set(dropped) | set(disqualified)
    return [p for p in players if p not in out]
