"""Whole numbers typed by strangers. ``str.isdigit`` accepts '²' and '٣' (int() fails on the
first) and any length (int() refuses more than 4300 digits, databases more than 19): read
only ASCII digits, and only as many as a real id, count or version has."""
from __future__ import annotations


def small_int(raw, max_digits: int = 18) -> int | None:
    """The non-negative int ``raw`` spells, or None."""
    if not isinstance(raw, str):
        return None
    raw = raw.strip()
    if raw and len(raw) <= max_digits and raw.isascii() and raw.isdigit():
        return int(raw)
    return None


def is_small_int(raw, max_digits: int = 18) -> bool:
    return small_int(raw, max_digits) is not None
