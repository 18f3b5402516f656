"""Structure tables: Swiss rounds and cut size by number of registered players."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Structure:
    rounds: int
    cut: int | None  # None: no cut (the Swiss winner wins)


# (min players, max players or None, Swiss rounds, cut)
BASIS = (
    (4, 8, 3, None),
    (9, 16, 4, None),
    (17, 24, 4, 4),
    (25, 40, 5, 4),
    (41, 44, 5, 8),
    (45, 76, 6, 8),
    (77, 148, 6, 16),
    (149, None, 7, 16),
)
FORTGESCHRITTEN = (
    (9, 12, 4, 4),
    (13, 24, 4, 8),
    (25, 40, 5, 8),
    (41, 76, 6, 8),
    (77, 148, 6, 16),
    (149, 288, 6, 32),
    (289, 512, 7, 32),
    (513, None, 8, 32),
)
# Mittelerde A (2 and 3-4 players "cannot count as an official council tournament").
MITTELERDE = (
    (2, 2, 1, None),
    (3, 4, 2, None),
    (5, 8, 3, None),
    (9, 16, 4, None),
    (17, 32, 5, None),
    (33, 64, 6, None),
    (65, 128, 7, None),
    (129, None, 8, None),
)
TABLES = {"basis": BASIS, "fortgeschritten": FORTGESCHRITTEN, "mittelerde": MITTELERDE}


def structure_for(name: str, players: int, *, rounds: int | None = None, cut: int | None = None) -> Structure:
    """Rounds and cut for ``players`` registered players. ``name`` is "basis",
    "fortgeschritten", "mittelerde" or "custom" ("Eigenständig": ``rounds`` and ``cut``
    given by the organizer). Raises ValueError when the table does not cover the count."""
    if name == "custom":
        if not rounds or rounds < 1:
            raise ValueError("a custom structure needs rounds >= 1")
        if cut is not None and (cut < 2 or cut > players):
            raise ValueError(f"cut {cut} does not fit {players} players")
        return Structure(rounds, cut)
    try:
        table = TABLES[name]
    except KeyError:
        raise ValueError(f"unknown structure {name!r}") from None
    for lo, hi, r, c in table:
        if players >= lo and (hi is None or players <= hi):
            return Structure(r, c)
    raise ValueError(f"the {name} structure starts at {table[0][0]} players, not {players}")
