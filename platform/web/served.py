"""The site's own address for links in mails and pushes when ``SITE_URL`` is unset: the address
this server was reached on (every link pointed to port 8000 whatever ``make run``'s
PORT said). Taken from the server's own socket (``SERVER_NAME``/``SERVER_PORT``, set by daphne,
uvicorn and gunicorn from the bound address), never from the Host header a client sends, so a
forged Host cannot put its address into someone's mail. Kept per process and in the cache (a
worker process sends the mails). Behind a proxy, set SITE_URL to the public address."""
from __future__ import annotations

import logging

from django.conf import settings

DEFAULT = "http://127.0.0.1:8000"
CACHE_KEY = "spieltisch:served-origin"
_origin: str | None = None
log = logging.getLogger(__name__)


def _from_request(request) -> str | None:
    name, port = request.META.get("SERVER_NAME", ""), str(request.META.get("SERVER_PORT", ""))
    if not name or name == "testserver":  # Django's test client: no server at all
        return None
    default_port = "443" if request.scheme == "https" else "80"
    host = f"[{name}]" if ":" in name and not name.startswith("[") else name
    return f"{request.scheme}://{host}" + ("" if port in ("", default_port) else f":{port}")


def remember(request) -> None:
    global _origin
    origin = _from_request(request)
    if origin is None or origin == _origin:
        return
    _origin = origin
    try:
        from django.core.cache import cache

        cache.set(CACHE_KEY, origin, None)
    except Exception:  # the cache fails open (core/cache.py); the process still knows
        log.debug("served origin not cached", exc_info=True)


def site_url() -> str:
    """SITE_URL if set, else the address this site was last served on, else the default."""
    if getattr(settings, "SITE_URL", ""):
        return settings.SITE_URL.rstrip("/")
    if _origin:
        return _origin
    try:
        from django.core.cache import cache

        return cache.get(CACHE_KEY) or DEFAULT
    except Exception:
        return DEFAULT


class ServedOriginMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not settings.SITE_URL:
            remember(request)
        return self.get_response(request)
