"""JSON from strangers: a depth limit checked on the raw text before parsing, so deeply nested
input is refused with a message instead of raising RecursionError in the parser or in any
recursive code after it. Pure Python (the games layer and the platform both use it)."""
from __future__ import annotations

import json
import re

MAX_DEPTH = 32  # far beyond any action, option set or API body the site defines
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


def too_deep(text: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """True if brackets nest deeper than ``limit`` (brackets inside strings do not count)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if data.count(b"[") + data.count(b"{") <= limit:
        return False  # fast path: cannot nest deeper than the brackets it has
    depth = 0
    for m in _BRACKET.finditer(_STRING.sub(b'""', data)):
        if m.group() in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def loads(text: str | bytes, limit: int = MAX_DEPTH):
    """json.loads that raises ValueError (never RecursionError) for input nested too deeply."""
    if too_deep(text, limit):
        raise ValueError(f"JSON nested deeper than {limit} levels")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
