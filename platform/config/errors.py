"""Server errors: a database that is down or restarting answers 503 with Retry-After, not 500.

Django calls ``handler500`` while the exception is being handled, so ``sys.exc_info()`` tells
a lost database connection (OperationalError/InterfaceError) from a real bug."""
from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.views.defaults import server_error

UNAVAILABLE = (OperationalError, InterfaceError)


def server_error_or_unavailable(request, *args, **kwargs):
    exc = sys.exc_info()[1]
    if isinstance(exc, UNAVAILABLE):
        return unavailable(request)
    return server_error(request, *args, **kwargs)


def unavailable(request) -> HttpResponse:
    detail = "The service is briefly unavailable (database). Please try again in a few seconds."
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": "unavailable", "detail": detail}, status=503)
    else:
        # No template: rendering one may need the database that is missing.
        response = HttpResponse(f"<!doctype html><title>503</title><h1>503</h1><p>{detail}</p>", status=503)
    response["Retry-After"] = "5"
    return response
