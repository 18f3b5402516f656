"""Lists that keep themselves current (the lobby, My games): the list is a part of the page that
polls its own URL with ``stamp=<hash of what it shows>`` (htmx, ``every Ns``, and at once on a
live frame: a turn badge change or an invitation's seats) and gets 204 while nothing changed,
else the new part. The queries are the page's own, so their count stays constant."""
from __future__ import annotations

import hashlib
import re
from urllib.parse import urlencode

from django.http import HttpResponse
from django.template.loader import render_to_string

SLOT = "__live_stamp__"
# Parts that differ on every render without a change of the list: the CSRF token's mask.
_VOLATILE = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def poll_url(request) -> str:
    params = [(k, v) for k, values in request.GET.lists() if k != "stamp" for v in values]
    return request.path + "?" + urlencode(params + [("stamp", SLOT)])


def render_part(request, template: str, context: dict) -> tuple[str, str]:
    """The part's HTML with its stamp filled in, and the stamp."""
    html = render_to_string(template, {**context, "poll_url": poll_url(request)}, request)
    stamp = hashlib.sha1(_VOLATILE.sub("", html).encode()).hexdigest()[:16]
    return html.replace(SLOT, stamp), stamp


def is_poll(request) -> bool:
    return bool(request.htmx) and "stamp" in request.GET


def answer_poll(request, template: str, context: dict) -> HttpResponse:
    html, stamp = render_part(request, template, context)
    if request.GET.get("stamp") == stamp:
        return HttpResponse(status=204)  # htmx leaves the part as it is
    return HttpResponse(html)
