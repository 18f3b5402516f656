"""Rate limits for the POSTs that need them, in one place: failed log-ins (password guessing;
per address and per account, so a successful log-in never counts), sign-ups and password
resets (mail bombing), and the game page's move forms (the JSON API's actions have DRF's
"actions" throttle). Fixed one-minute windows counted in the cache; with the cache down the
limits are off rather than the site (config/cache.py fails open).

Limits: settings.RATE_LIMITS overrides {rule: requests per minute}. Behind a reverse proxy
set RATE_LIMIT_PROXY_COUNT (env) to the number of proxies, so the client's own address (from
X-Forwarded-For) is counted and not the proxy's.
"""
from __future__ import annotations

import os
import re
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _

DEFAULTS = {"login-ip": 20, "login-user": 10, "signup-ip": 20, "reset-ip": 10, "match-post": 600}
LOGIN = re.compile(r"^/(accounts/login|api/auth/token)/$")


def _failed(response) -> bool:  # a log-in form shown again (200) or refused (400)
    return response.status_code not in (301, 302) and response.status_code < 500 and (
        response.status_code != 200 or "json" not in response.get("Content-Type", ""))


def _any(response) -> bool:
    return True


def _created(response) -> bool:
    return response.status_code in (301, 302)


# (rule, path pattern, what identifies the client, which responses count)
RULES = [
    ("login-ip", LOGIN, "ip", _failed),
    ("login-user", LOGIN, "username", _failed),
    ("signup-ip", re.compile(r"^/accounts/signup/$"), "ip", _created),
    ("reset-ip", re.compile(r"^/accounts/password/reset/$"), "ip", _any),
    ("match-post", re.compile(r"^/matches/\d+/(act|undo|resign|chat)/$"), "user", _any),
]
PROXY_COUNT = int(os.environ.get("RATE_LIMIT_PROXY_COUNT", "0"))


def limits() -> dict:
    return {**DEFAULTS, **getattr(settings, "RATE_LIMITS", {})}


def client_ip(request) -> str:
    if PROXY_COUNT:
        hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
        if len(hops) >= PROXY_COUNT:
            return hops[-PROXY_COUNT]
    return request.META.get("REMOTE_ADDR") or "unknown"


def _ident(request, kind: str) -> str | None:
    if kind == "ip":
        return client_ip(request)
    if kind == "username":
        name = (request.POST.get("username") or "").strip().lower()
        return name[:150] or None
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"u{user.pk}"
    return "ip" + client_ip(request)


def _key(rule: str, ident: str, window: int) -> str:
    return f"rl:{rule}:{ident}:{window}"


def _count(key: str) -> None:
    cache.add(key, 0, timeout=70)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=70)


class RateLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method != "POST":
            return self.get_response(request)
        now = time.time()
        window = int(now // 60)
        allowed, counted = limits(), []
        for rule, pattern, kind, counts in RULES:
            if not pattern.match(request.path_info):
                continue
            ident = _ident(request, kind)
            if ident is None:
                continue
            key = _key(rule, ident, window)
            if (cache.get(key) or 0) >= allowed[rule]:
                return too_many(request, max(1, int((window + 1) * 60 - now)))
            counted.append((key, counts))
        response = self.get_response(request)
        for key, counts in counted:
            if counts(response):
                _count(key)
        return response


def too_many(request, wait: int) -> HttpResponse:
    detail = _("Too many attempts. Please wait %(seconds)s seconds and try again.") % {"seconds": wait}
    if request.path_info.startswith("/api/"):
        response = JsonResponse({"error": "throttled", "detail": detail}, status=429)
    else:
        response = HttpResponse(f"<!doctype html><title>429</title><p>{detail}</p>", status=429)
    response["Retry-After"] = str(wait)
    return response
