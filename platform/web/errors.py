"""Server errors: a database that is down or restarting answers 503 with Retry-After, not 500.

Django calls ``handler500`` while the exception is being handled, so ``sys.exc_info()`` tells
a lost database connection (OperationalError/InterfaceError) from a real bug. The 500 page is
``500.html`` inside the site's frame, rendered without the request (no context processors, so
no database query and no user) in the language the request had; if even that fails, plain text."""
from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponseServerError, JsonResponse
from django.template import loader
from django.views.defaults import page_not_found

UNAVAILABLE = (OperationalError, InterfaceError)


def server_error_or_unavailable(request, *args, **kwargs):
    exc = sys.exc_info()[1]
    if isinstance(exc, UNAVAILABLE):
        return unavailable(request)
    return server_error(request)


def server_error(request, template_name: str = "500.html") -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"error": "server_error", "detail": "A server error occurred."}, status=500)
    try:
        body = loader.get_template(template_name).render()
    except Exception:  # the error page must not fail in its turn
        body = "<!doctype html><title>500</title><h1>500</h1><p>A server error occurred.</p>"
    return HttpResponseServerError(body)


def not_found(request, exception=None):
    """404: the API's JSON shape under /api/, the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"error": "not_found", "detail": "Not found."}, status=404)
    return page_not_found(request, exception)


def unavailable(request) -> HttpResponse:
    detail = "The service is briefly unavailable (database). Please try again in a few seconds."
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": "unavailable", "detail": detail}, status=503)
    else:
        # No template: rendering one may need the database that is missing.
        response = HttpResponse(f"<!doctype html><title>503</title><h1>503</h1><p>{detail}</p>", status=503)
    response["Retry-After"] = "5"
    return response
