"""JSON from strangers: a depth limit checked on the raw text before parsing, so deeply nested
input is refused with a message instead of raising RecursionError in the parser or in any
recursive code after it; and no lone surrogate ("\\ud800" is valid JSON but no text: it cannot
be encoded as UTF-8, so a cache key, a database parameter or an error message echoing it would
fail later with a 500). Pure Python (the games layer and the platform both use it)."""
from __future__ import annotations

import json
import re

MAX_DEPTH = 32  # far beyond any action, option set or API body the site defines
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")
# A surrogate spelled as an escape (\uD800-\uDFFF), or one already in a str (surrogatepass bytes).
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}|\xed[\xa0-\xbf]")


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


def has_lone_surrogate(text: str | bytes, value) -> bool:
    """True if ``value`` (parsed from ``text``) holds a surrogate that is not half of a pair.
    The raw text is searched first, so only input that spells a surrogate is walked."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if not _SURROGATE.search(data):
        return False
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def loads(text: str | bytes, limit: int = MAX_DEPTH):
    """json.loads that raises ValueError (never RecursionError) for input nested too deeply or
    holding a lone surrogate."""
    if too_deep(text, limit):
        raise ValueError(f"JSON nested deeper than {limit} levels")
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    if has_lone_surrogate(text, value):
        raise ValueError("JSON text holds a lone surrogate")
    return value
