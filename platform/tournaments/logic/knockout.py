"""Knockout rounds (Eiserner Thron "K. o.-Runden").

A knockout round is a list of numbered slots (#1, #2, ...). A slot holds a match of two
players or a single player with a bye. Next round: the winner of #1 meets the winner of the
last slot (new #1), the winner of #2 the winner of the second-to-last (new #2), and so on.
A player who drops gives the current or next opponent a bye.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .records import KNOCKOUT, Match, Pairing, Round
from .seeding import rng_for


@dataclass(frozen=True)
class Slot:
    number: int
    players: tuple[int, ...]  # two: a match; one: a bye; none: both sides dropped

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1


@dataclass(frozen=True)
class KnockoutRound:
    round: int
    slots: tuple[Slot, ...]

    def to_pairing(self) -> Pairing:
        """Tables in match-number order; table n carries match number ``slots[n].number``.
        Byes are listed separately (their slot numbers stay in ``slots``)."""
        return Pairing(self.round, KNOCKOUT, [s.players for s in self.slots if len(s.players) == 2],
                       [s.players[0] for s in self.slots if s.is_bye])

    def to_api(self) -> dict:
        """The REST round shape; ``match`` is the bracket number (#1, #2, ...)."""
        pairings = [{"table": i + 1, "match": s.number, "users": list(s.players), "result": None}
                    for i, s in enumerate(x for x in self.slots if len(x.players) == 2)]
        return {"round": self.round, "stage": KNOCKOUT, "pairings": pairings,
                "byes": [s.players[0] for s in self.slots if s.is_bye],
                "bracket": [{"match": s.number, "users": list(s.players)} for s in self.slots]}

    def to_round(self) -> Round:
        ms = [Match(s.players, table=i + 1, number=s.number)
              for i, s in enumerate(x for x in self.slots if len(x.players) == 2)]
        return Round(self.round, tuple(ms), tuple(s.players[0] for s in self.slots if s.is_bye),
                     (), KNOCKOUT)


def after_cut(seeds: Sequence[int], round_number: int = 1, dropped: Iterable[int] = ()) -> KnockoutRound:
    """First knockout round after a cut: seed 1 vs seed N is #1, 2 vs N-1 is #2, ...
    (A seed count that is not a power of two gives the top seeds byes so that round two is
    a power of two — a choice of ours; the seed only cuts to 4/8/16/32.)"""
    seeds = list(seeds)
    n = len(seeds)
    size = 1
    while size < n:
        size *= 2
    padded = seeds + [None] * (size - n)
    dropped = set(dropped)
    slots = []
    for i in range(size // 2):
        pair = [padded[i], padded[size - 1 - i]]
        slots.append(Slot(i + 1, tuple(p for p in pair if p is not None and p not in dropped)))
    return KnockoutRound(round_number, tuple(slots))


def from_start(players: Sequence[int], seed: int, round_number: int = 1) -> KnockoutRound:
    """Knockout from the first round: random byes to (next power of two - n) players, the
    rest paired at random, and every match and bye gets a random number from #1."""
    rng = rng_for(seed, "knockout-start")
    players = list(players)
    n = len(players)
    size = 1
    while size < n:
        size *= 2
    rng.shuffle(players)
    nbyes = size - n
    entries: list[tuple[int, ...]] = [(p,) for p in players[:nbyes]]
    rest = players[nbyes:]
    entries += [(rest[i], rest[i + 1]) for i in range(0, len(rest) - 1, 2)]
    rng.shuffle(entries)
    return KnockoutRound(round_number, tuple(Slot(i + 1, e) for i, e in enumerate(entries)))


def advance(prev: KnockoutRound, winners: Mapping[int, int | None], dropped: Iterable[int] = ()) -> KnockoutRound | None:
    """The next knockout round. ``winners`` maps match number -> winner id for the matches
    of ``prev`` (byes advance by themselves; a missing winner means the match is
    unfinished). A dropped player is not paired: the opponent gets a bye. Returns None when
    ``prev`` was the final."""
    dropped = set(dropped)
    adv: list[int | None] = []
    for s in prev.slots:
        if len(s.players) == 2:
            if s.number not in winners:
                raise ValueError(f"match #{s.number} has no winner yet")
            w = winners[s.number]
            if w is not None and w not in s.players:
                raise ValueError(f"{w} did not play match #{s.number}")
            adv.append(w)
        elif len(s.players) == 1:
            adv.append(s.players[0])
        else:
            adv.append(None)
    if len(adv) <= 1:
        return None
    m = len(adv)
    slots = []
    for i in range(m // 2):
        pair = (adv[i], adv[m - 1 - i])
        slots.append(Slot(i + 1, tuple(p for p in pair if p is not None and p not in dropped)))
    return KnockoutRound(prev.round + 1, tuple(slots))


def walkover(slot: Slot, dropped_player: int) -> int:
    """A player drops during a knockout match: the opponent advances (a bye for this round)."""
    rest = [p for p in slot.players if p != dropped_player]
    if len(rest) != 1:
        raise ValueError("walkover needs a two-player slot containing the dropped player")
    return rest[0]


def champion(last: KnockoutRound, winners: Mapping[int, int | None]) -> int | None:
    """The winner of a final round (a single slot)."""
    if len(last.slots) != 1:
        return None
    s = last.slots[0]
    if len(s.players) == 1:
        return s.players[0]
    if len(s.players) == 2:
        return winners.get(s.number)
    return None
