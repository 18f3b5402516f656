"""The game page's live part, rendered for a page's own match socket.

A page that says so in its ``hello`` (``{"type": "hello", "live": "de"}``) gets, for each new
version of its match, the live part itself, rendered for the socket's user in that language:
``{"type": "live", "match": 7, "version": 13, "html": "<div id=\"live\" ...>"}`` instead of the
``match.update`` frame that would make it fetch the same part with a second request. Rendered
per socket, as that user (the seat the socket's user holds now, or a spectator's public view),
so it carries exactly what a GET of the part would; sockets that do not ask (API clients,
bots) get the plain frames and cost nothing here.

The page itself is the frontend's: it registers the renderer at start-up (``register``), so
this app does not import the pages. Without one, every socket gets the plain frames.
"""
from __future__ import annotations

from collections.abc import Callable

# (match_id, user, lang, csrf_cookie) -> (version, html), or None if the user may not watch
Renderer = Callable[[int, object, str, "str | None"], "tuple[int, str] | None"]
_renderer: Renderer | None = None


def register(renderer: Renderer) -> None:
    global _renderer
    _renderer = renderer


def renderer() -> Renderer | None:
    return _renderer


def wanted_language(data: dict) -> str | None:
    """The language a hello asks its live parts in (one of the site's), or None: plain frames."""
    from django.conf import settings

    lang = data.get("live")
    if _renderer is None or not isinstance(lang, str):
        return None
    return lang if lang in dict(settings.LANGUAGES) else None


def is_update(text: str) -> bool:
    """A seat's or the public's ``match.update`` frame (live.dumps writes ``type`` first)."""
    return text.startswith('{"type":"match.update"')
