"""Guest accounts: "Try it now" without signing up.

A guest is an ordinary ``User`` whose profile has ``guest_since`` set: no e-mail address (so no
mail), no usable password, a name ``guest-<hex>`` that sign-up refuses to others. A guest may
play the guided match (platform/guide) and nothing else that needs an account: the gate below
lets a guest reach only the paths of ``ALLOWED`` and refuses the rest with an offer to sign up.
Signing up turns the guest into the account in place (same row, so the guided match stays in
its history); a guest nobody signed up with is removed a day later (guide/tasks.py). Making
guests counts against ``guest-ip`` per address (web/ratelimit.py).
"""
from __future__ import annotations

import re
import secrets

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _

PREFIX = "guest-"
LIFETIME_HOURS = 24  # a guest nobody signed up with is removed after this

# What a guest may reach: the guided match and the pages around it, the way to sign up.
ALLOWED = re.compile(r"""^/(
    | help/ | privacy/ | imprint/ | terms/ | games/[\w-]+/rules/
    | learn/.*
    | matches/\d+/((live|act|undo|resign|notes|notify|chat/(lines|read)|orders/(queue|cancel|set))/)?
    | accounts/(signup|login|logout|language)/ | i18n/.*
    | static/.* | favicon\.ico
)$""", re.X)


def is_guest(user) -> bool:
    if user is None or not user.is_authenticated:
        return False
    profile = getattr(user, "profile", None)
    return profile is not None and profile.guest_since is not None


def create_guest(language: str):
    """A new guest user (profile language ``language``), not logged in yet."""
    User = get_user_model()
    for _attempt in range(5):
        name = PREFIX + secrets.token_hex(4)
        try:
            with transaction.atomic():
                user = User.objects.create_user(username=name, email="")  # no password: unusable
                profile = user.profile
                profile.guest_since = timezone.now()
                profile.language = language
                profile.save(update_fields=["guest_since", "language"])
            return user
        except IntegrityError:  # the name was taken meanwhile; draw another
            continue
    raise RuntimeError("no free guest name")


def refusal_text() -> str:
    return _("As a guest you can play the guided match. To use the rest of the site, sign up: "
             "your guided match stays yours.")


class GuestGateMiddleware:
    """Refuses a guest everything outside ``ALLOWED``: the API with 403 and the API's error
    shape, a page with a redirect to sign-up (htmx: ``HX-Redirect``) and a message saying why."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if ALLOWED.match(request.path_info) or not is_guest(getattr(request, "user", None)):
            return self.get_response(request)
        if request.path_info.startswith("/api/"):
            return JsonResponse({"error": "guest_account", "detail": refusal_text()}, status=403)
        signup = reverse("signup")
        if request.method == "GET":
            signup += "?" + urlencode({"next": request.get_full_path()})
        messages.info(request, refusal_text())
        if request.headers.get("HX-Request"):
            response = HttpResponse(status=403)
            response["HX-Redirect"] = signup
            return response
        return redirect(signup)
