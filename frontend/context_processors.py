from functools import cache

from django.apps import apps
from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils import translation

from accounts.guests import is_guest
from matches.queries import my_turn_count


def _nav_items() -> list[dict]:
    """Links that feature apps add to the header: ``nav_items = [(url_name, label), ...]`` on
    their AppConfig; ``header_templates`` likewise adds small templates (e.g. a bell)."""
    items = []
    for config in apps.get_app_configs():
        for url_name, label in getattr(config, "nav_items", ()):
            try:
                items.append({"url": reverse(url_name), "label": label})
            except NoReverseMatch:
                continue
    return items


def _header_templates() -> list[str]:
    return [t for config in apps.get_app_configs() for t in getattr(config, "header_templates", ())]


def site(request):
    user = getattr(request, "user", None)
    # Worked out when a template asks (templates call a callable), once: only the full pages'
    # header shows them, not the parts re-rendered after every move (the game page's live part).
    count = cache(lambda: my_turn_count(user)) if user is not None and user.is_authenticated else 0
    return {"site_name": settings.SITE_NAME, "my_turn_count": count, "lang": translation.get_language() or "en",
            "nav_items": cache(_nav_items), "header_templates": _header_templates(), "is_guest": is_guest(user)}
