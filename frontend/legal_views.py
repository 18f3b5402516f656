"""The legal pages: privacy notice, Impressum, terms (contract "Accounts"), one template per
language, filled from settings.SITE_OPERATOR (what an operator sets up, see settings.py)."""
from django.conf import settings
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_safe

from web.served import site_url

PAGES = {"privacy", "imprint", "terms"}
REQUIRED = ("name", "address", "email")


def operator() -> dict:
    data = dict(getattr(settings, "SITE_OPERATOR", {}) or {})
    address = (data.get("address") or "").replace("|", "\n")
    data["address_lines"] = [line.strip() for line in address.splitlines() if line.strip()]
    data["missing"] = [key for key in REQUIRED if not data.get(key)]
    return data


@require_safe
def legal_page(request, page: str):
    lang = "de" if (translation.get_language() or "en").startswith("de") else "en"
    return render(request, f"frontend/legal/{page}.{lang}.html",
                  {"operator": operator(), "page": page, "site_url": site_url()})
