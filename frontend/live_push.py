"""The live part of the game page rendered for a page's match socket (matches/livepart.py):
what ``GET /matches/<id>/live/`` answers, without the request. The socket knows its user; the
page's language comes with its hello, and the forms get the browser's own CSRF token (from the
cookie the socket was opened with), so a move posted from the new part is accepted as before."""
from __future__ import annotations

from django.http import Http404, HttpRequest, QueryDict
from django.middleware.csrf import CSRF_SECRET_LENGTH, CSRF_TOKEN_LENGTH, _unmask_cipher_token
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation


def _csrf_secret(cookie: str | None) -> str | None:
    if not isinstance(cookie, str) or not cookie.isalnum():
        return None
    if len(cookie) == CSRF_TOKEN_LENGTH:  # an older, masked cookie
        return _unmask_cipher_token(cookie)
    return cookie if len(cookie) == CSRF_SECRET_LENGTH else None


def render_part(match_id: int, user, lang: str, csrf_cookie: str | None) -> tuple[int, str] | None:
    from .views import match_context, shared_reads

    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = reverse("match-live", args=[match_id])
    request.GET = QueryDict()
    request.user = user
    request.htmx = False
    secret = _csrf_secret(csrf_cookie)
    if secret:
        request.META["CSRF_COOKIE"] = secret
    shared = shared_reads.set(True)  # the renders of one version share what is the same for all
    try:
        with translation.override(lang):
            request.LANGUAGE_CODE = lang
            try:
                context = match_context(request, match_id)
            except Http404:
                return None  # no longer watchable by this user
            return context["version"], render_to_string("frontend/match_live.html", context, request=request)
    finally:
        shared_reads.reset(shared)
