"""``/health/`` (JSON; 200 healthy, 503 with the failing checks) and ``/metrics`` (Prometheus).

``/metrics`` answers only a request from an address in ``METRICS_ALLOWED_IPS`` (default: this
machine) or one that carries ``Authorization: Bearer <METRICS_TOKEN>``; behind a reverse proxy
every request comes from the proxy's address, so the proxy must refuse ``/metrics`` from
outside (deploy/nginx/spieltisch.conf does) or the token must be set."""
from __future__ import annotations

import hmac

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST

from . import checks, metrics


@never_cache
def health(request):
    result = checks.run_all()
    return JsonResponse(result, status=200 if result["status"] == "ok" else 503)


def _may_scrape(request) -> bool:
    token = getattr(settings, "METRICS_TOKEN", "")
    given = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return True
    return request.META.get("REMOTE_ADDR") in getattr(settings, "METRICS_ALLOWED_IPS", ("127.0.0.1", "::1"))


@never_cache
def prometheus(request):
    if not _may_scrape(request):
        return JsonResponse({"error": "forbidden", "detail": _("The metrics are not public.")}, status=403)
    return HttpResponse(metrics.render(), content_type=CONTENT_TYPE_LATEST)
