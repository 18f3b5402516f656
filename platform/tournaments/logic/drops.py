"""Drops, re-entry and disqualification (Eiserner Thron "Paarungen"; Mittelerde H/25).

A dropped player is not paired again. Re-joining is possible only in the stage in which the
player left and gives one unpaired loss for every round of that stage missed meanwhile. A
disqualified player never re-joins."""
from __future__ import annotations

from collections.abc import Sequence

from .records import Round


class RejoinRefused(ValueError):
    pass


def missed_rounds(player: int, rounds: Sequence[Round]) -> list[int]:
    """Numbers of the rounds in ``rounds`` in which ``player`` has no table, bye or loss."""
    out = []
    for r in rounds:
        present = player in r.byes or player in r.unpaired_losses or any(player in m.players for m in r.matches)
        if not present:
            out.append(r.number)
    return out


def rejoin(player: int, stage_rounds: Sequence[Round], *, dropped_in_stage: str, current_stage: str,
           disqualified: bool = False, since_round: int = 0) -> list[int]:
    """Round numbers that get an unpaired loss for a re-joining player: the rounds of the
    current stage after ``since_round`` (the last round the player took part in) in which
    the player is absent. Raises RejoinRefused when not allowed."""
    if disqualified:
        raise RejoinRefused("a disqualified player can never re-join")
    if dropped_in_stage != current_stage:
        raise RejoinRefused("re-joining is only possible in the stage the player left")
    return [n for n in missed_rounds(player, stage_rounds) if n > since_round]


def with_unpaired_losses(rounds: Sequence[Round], player: int, numbers: Sequence[int]) -> list[Round]:
    """``rounds`` with ``player`` added to the unpaired losses of the given round numbers."""
    wanted = set(numbers)
    out = []
    for r in rounds:
        if r.number in wanted and player not in r.unpaired_losses:
            r = Round(r.number, r.matches, r.byes, r.unpaired_losses + (player,), r.stage)
        out.append(r)
    return out
