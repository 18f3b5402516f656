"""Every URL pattern of the site, read from the URLconf, so new endpoints are covered by the
security tests without editing them."""
from __future__ import annotations

import re
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver

PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")


@dataclass(frozen=True)
class Route:
    pattern: str  # e.g. "api/matches/<int:pk>/log/"
    name: str | None
    callback: object

    @property
    def params(self) -> list[tuple[str, str]]:
        return [(conv or "str", name) for conv, name in PARAM.findall(self.pattern)]

    def url(self, **values) -> str:
        def fill(m):
            return str(values[m.group(2)])
        return "/" + PARAM.sub(fill, self.pattern)

    @property
    def is_api(self) -> bool:
        return self.pattern.startswith("api/")

    @property
    def is_admin(self) -> bool:
        return self.pattern.startswith("admin/")


def all_routes() -> list[Route]:
    out: list[Route] = []

    def walk(patterns, prefix: str):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                raw = prefix + str(p.pattern)
                if raw.startswith("^") or "(?P" in raw:  # regex routes (admin internals)
                    raw = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"<str:\1>", raw).lstrip("^").rstrip("$").replace("\\Z", "")
                    raw = raw.replace("\\", "")
                out.append(Route(raw, p.name, p.callback))

    walk(get_resolver().url_patterns, "")
    seen, unique = set(), []
    for r in out:
        if r.pattern not in seen:
            seen.add(r.pattern)
            unique.append(r)
    return unique


def match_routes() -> list[Route]:
    """Everything about one match: pages, live part, API, log, replays, exports."""
    return [r for r in all_routes() if re.match(r"^(api/)?matches/<int:pk>/", r.pattern)]
