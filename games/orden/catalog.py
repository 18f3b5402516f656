"""The loaded card sets (base set and any expansion file in cards/)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from games.orden.schema import CardSet, load_sets

CARD_DIR = Path(__file__).resolve().parent / "cards"


@lru_cache(maxsize=1)
def cardset() -> CardSet:
    return load_sets(sorted(CARD_DIR.glob("*.json")))


def card(no: int):
    return cardset().cards[no]
