"""Deriving independent, reproducible RNG streams from one tournament seed."""
from __future__ import annotations

import hashlib

from games.rng import Rng


def derive(seed: int, *labels) -> int:
    """A 64-bit seed for the stream named by ``labels`` (e.g. ("swiss", 3)). Stable across
    processes (no ``hash()``, which is salted for strings)."""
    h = hashlib.blake2b(digest_size=8)
    h.update(str(int(seed)).encode())
    for label in labels:
        h.update(b"\x1f" + str(label).encode())
    return int.from_bytes(h.digest(), "big")


def rng_for(seed: int, *labels) -> Rng:
    return Rng(derive(seed, *labels))
