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

Cost: a render is a page's worth of CPU (20-45 ms on the 2-core box), so a process renders one
part at a time (two at once share the GIL and both finish late; one after the other, the first
page shows the move at once), the page that has just moved last (it has its answer already), and
anonymous spectators of a version share one render (rendered without a CSRF cookie: their pages
put their own token into its forms), so a crowd watching costs one render, not one each.
"""
from __future__ import annotations

import asyncio
import json
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


MOVER_YIELDS_S = 0.003  # the page that moved lets the others' frames queue for the render first
SHARED_KEPT = 64  # anonymous spectators' renders kept (match, version, language)
_slot: asyncio.Semaphore | None = None
_shared: dict[tuple, asyncio.Future] = {}
_loop = None  # the event loop the two above belong to (a server has one; tests start several)


def _for_this_loop() -> None:
    global _slot, _loop
    loop = asyncio.get_running_loop()
    if loop is not _loop:
        _loop, _slot = loop, asyncio.Semaphore(1)
        _shared.clear()


def version_of(text: str) -> int | None:
    try:
        return json.loads(text).get("version")
    except (ValueError, AttributeError):
        return None


async def part_for(match_id: int, user, lang: str, csrf_cookie: str | None, version: int | None,
                   moved: bool = False) -> tuple[int, str] | None:
    """The live part for this socket's user (see the module's docstring), or None."""
    _for_this_loop()
    if moved:
        await asyncio.sleep(MOVER_YIELDS_S)
    if user is not None and user.is_authenticated or version is None:
        return await _render(match_id, user, lang, csrf_cookie)
    key = (match_id, version, lang)
    task = _shared.get(key)
    if task is None:
        task = _shared[key] = asyncio.ensure_future(_render(match_id, user, lang, None))
        while len(_shared) > SHARED_KEPT:
            _shared.pop(next(iter(_shared)))
    return await asyncio.shield(task)


async def _render(match_id: int, user, lang: str, csrf_cookie: str | None):
    from .socketmoves import on_threads

    async with _slot:
        return await on_threads(_renderer, match_id, user, lang, csrf_cookie)
