"""Rate limits for the POSTs that need them, in one place: failed log-ins (password guessing;
per address and per account, so a successful log-in never counts; the admin's log-in also
locks one account from one address for 15 minutes after 5 failures), sign-ups and password
resets (mail bombing), guest accounts, and the game page's move forms (the JSON API's actions
have the "actions" throttle of api/throttles.py, counted with take() below), and per user the making of things that fill shared pages (invitations,
chat lines, tournaments, decks). Fixed windows (a minute unless WINDOWS says otherwise) counted
in the cache; with the cache down the
limits are off rather than the site (core/cache.py fails open). Each request takes its
place in the counter before it runs (atomic increment) and gives it back if it does not count,
so the limits hold under concurrency; the per-account rule reads the username from forms and
JSON bodies alike.

Limits: settings.RATE_LIMITS (or RATE_LIMITS="rule=n,..." in the environment) overrides
{rule: requests per window}. Behind a reverse proxy
set RATE_LIMIT_PROXY_COUNT (env) to the number of proxies, so the client's own address (from
X-Forwarded-For) is counted and not the proxy's.
"""
from __future__ import annotations

import functools
import json
import os
import re
import time

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _

DEFAULTS = {"login-ip": 20, "login-user": 10, "admin-login": 5, "signup-ip": 20, "reset-ip": 10, "match-post": 600,
            "guest-ip": 10,  # guest accounts per address and hour
            # Things that fill pages everyone reads (lobby, tournaments, a match's chat), and
            # decks: per user, counted when made (a refused form does not count).
            "invitation-user": 10, "chat-user": 20, "tournament-user": 5, "deck-user": 30}
# Window length in seconds of the rules that do not count per minute.
WINDOWS = {"admin-login": 900, "guest-ip": 3600, "invitation-user": 600, "tournament-user": 3600, "deck-user": 600}
LOGIN = re.compile(r"^/(accounts/login|api/auth/token|admin/login)/$")
ADMIN_LOGIN = re.compile(r"^/admin/login/$")


def _failed(response) -> bool:  # a log-in form shown again (200) or refused (400)
    return response.status_code not in (301, 302) and response.status_code < 500 and (
        response.status_code != 200 or "json" not in response.get("Content-Type", ""))


def _any(response) -> bool:
    return True


def _made(response) -> bool:  # the API's 201, or a page's redirect after a valid form
    return response.status_code in (201, 302, 303)


# (rule, path pattern, what identifies the client, which responses count)
RULES = [
    ("login-ip", LOGIN, "ip", _failed),
    ("login-user", LOGIN, "username", _failed),
    # The admin's door: one account from one address, locked for the window (django-axes' rule).
    ("admin-login", ADMIN_LOGIN, "username-ip", _failed),
    # Every attempt counts: a refused form (a probe) costs as much as an account.
    ("signup-ip", re.compile(r"^/accounts/signup/$"), "ip", _any),
    ("reset-ip", re.compile(r"^/accounts/password/reset/$"), "ip", _any),
    # Guest accounts ("Try it now", accounts/guests.py): counted when one was made, per address.
    ("guest-ip", re.compile(r"^/learn/[\w-]+/try/$"), "anonymous-ip", _made),
    ("match-post", re.compile(r"^/matches/\d+/(act|undo|resign|chat)/$"), "user", _any),
    ("invitation-user", re.compile(r"^/(api/invitations|invitations/new(/[\w-]+)?|users/[^/]+/invite)/$"), "user",
     _made),
    ("chat-user", re.compile(r"^/(api/)?matches/\d+/chat/$"), "user", _any),
    ("tournament-user", re.compile(r"^/(api/tournaments|tournaments/new)/$"), "user", _made),
    ("deck-user", re.compile(r"^/(api/)?[\w-]+/decks/(new/|copy/)?$"), "user", _made),
]
PROXY_COUNT = int(os.environ.get("RATE_LIMIT_PROXY_COUNT", "0"))


def limits() -> dict:
    return {**DEFAULTS, **_env_limits(os.environ.get("RATE_LIMITS", "")), **getattr(settings, "RATE_LIMITS", {})}


@functools.lru_cache(maxsize=4)
def _env_limits(raw: str) -> dict:
    """RATE_LIMITS="rule=n,rule=n" from the environment (reaches servers and workers a test
    suite starts, which do not share its settings)."""
    out = {}
    for part in raw.split(","):
        rule, _, n = part.partition("=")
        if rule.strip() and n.strip().isdigit():
            out[rule.strip()] = int(n)
    return out


def client_ip(request) -> str:
    if PROXY_COUNT:
        hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
        if len(hops) >= PROXY_COUNT:
            return hops[-PROXY_COUNT]
    return request.META.get("REMOTE_ADDR") or "unknown"


def posted_username(request) -> str:
    """The username a log-in posts, whatever the body's type: a form (urlencoded or multipart)
    or JSON (the token endpoint's clients). The body was checked by web.guard (size, NUL,
    nesting) before this runs."""
    ctype = request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
    if ctype.endswith("json"):
        try:
            data = json.loads(request.body or b"{}")
        except (ValueError, RecursionError):
            return ""
        value = data.get("username") if isinstance(data, dict) else None
    else:
        try:
            value = request.POST.get("username")
        except Exception:  # an unreadable body: the view refuses it; nothing to count per account
            return ""
    return value if isinstance(value, str) else ""


def _ident(request, kind: str) -> str | None:
    if kind == "ip":
        return client_ip(request)
    if kind == "anonymous-ip":  # only visitors not signed in (who would get a new guest)
        user = getattr(request, "user", None)
        return None if user is not None and user.is_authenticated else client_ip(request)
    if kind in ("username", "username-ip"):
        name = posted_username(request).strip().lower()[:150]
        if not name:
            return None
        return name if kind == "username" else f"{name}@{client_ip(request)}"
    user_id = _user_id(request)
    return f"u{user_id}" if user_id is not None else "ip" + client_ip(request)


def _user_id(request) -> int | None:
    """The signed-in user: by session, or by API token (DRF authenticates only in the view,
    after this middleware)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user.pk
    scheme, _, key = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() == "token" and 0 < len(key.strip()) <= 40:
        from rest_framework.authtoken.models import Token

        return Token.objects.filter(key=key.strip()).values_list("user_id", flat=True).first()
    return None


def _key(rule: str, ident: str, window: int) -> str:
    # The ident comes from the request (a posted username): spelled so that any text, a lone
    # surrogate included, makes a key the cache can encode (Redis keys are UTF-8 bytes).
    ident = ident.encode("utf-8", "backslashreplace").decode("utf-8")
    return f"rl:{rule}:{ident}:{window}"


def take(key: str, seconds: int = 60) -> int:
    """Counts one request in ``key``'s window, atomically (cache.add + incr: Redis INCR, or the
    local-memory cache's lock), and returns the new count. Counting before the request runs
    is what makes the limit hold under concurrency: of 60 parallel attempts against a limit
    of 10 exactly 10 get through (a check-then-count let 19 through). The Redis cache counts in
    one round trip (core.cache.ResilientRedisCache.count)."""
    count = getattr(cache, "count", None)
    if count is not None:
        return count(key, seconds + 10)
    cache.add(key, 0, timeout=seconds + 10)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 0, timeout=seconds + 10)
        return cache.incr(key)


def _give_back(key: str) -> None:
    """A request that does not count after all (a successful log-in) frees its place."""
    try:
        cache.decr(key)
    except ValueError:
        pass


class RateLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method != "POST":
            return self.get_response(request)
        now = time.time()
        allowed, taken = limits(), []
        for rule, pattern, kind, counts in RULES:
            if not pattern.match(request.path_info):
                continue
            ident = _ident(request, kind)
            if ident is None:
                continue
            seconds = WINDOWS.get(rule, 60)
            window = int(now // seconds)
            key = _key(rule, ident, window)
            taken.append((key, counts))
            if take(key, seconds) > allowed[rule]:
                for other, _counts in taken[:-1]:
                    _give_back(other)  # refused: only the rule that refused keeps the count
                return too_many(request, max(1, int((window + 1) * seconds - now)))
        response = self.get_response(request)
        for key, counts in taken:
            if not counts(response):
                _give_back(key)
        return response


def too_many(request, wait: int) -> HttpResponse:
    detail = _("Too many attempts. Please wait %(seconds)s seconds and try again.") % {"seconds": wait}
    if request.path_info.startswith("/api/"):
        response = JsonResponse({"error": "throttled", "detail": detail}, status=429)
    elif request.headers.get("HX-Request"):  # a fragment's place: the words only
        response = HttpResponse(detail, status=429, content_type="text/plain; charset=utf-8")
    else:  # a page in the site's frame (a guest who tried too often, a log-in form)
        response = render(request, "429.html", {"detail": detail}, status=429)
    response["Retry-After"] = str(wait)
    return response
