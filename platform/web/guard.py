"""Input that no view should ever see, refused at the door with a 4xx instead of a 500 deep inside:

- a NUL character in the path, the query string, a header, a cookie or the body: PostgreSQL
  cannot store or compare it (psycopg raises ValueError on any string parameter holding one),
  and no legitimate client sends one;
- JSON nested deeper than MAX_JSON_DEPTH (Python's parser and everything recursive after it
  would hit RecursionError);
- a JSON body holding a lone surrogate ("\\ud800": valid JSON, but no text; a cache key, a
  database parameter or a response echoing it fails to encode);
- form fields (urlencoded, multipart) or a query string that are not valid UTF-8: Django would
  decode them with U+FFFD in place of the bytes and store the damaged text (a note, a chat
  line); refused with a clear 400 instead;
- a body larger than DATA_UPLOAD_MAX_MEMORY_SIZE: 413 (Django itself would answer 400 only
  when a view reads it as a form);
- a number in the path longer than any id: 404.

Under /api/ every error answers the one JSON shape {"error", "detail"}: responses that left a
view (or Django's own 404/405/500 handlers) as HTML or empty are reshaped here.
"""
from __future__ import annotations

import re
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.http.multipartparser import MultiPartParserError
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from games.safejson import MAX_DEPTH as MAX_JSON_DEPTH, has_lone_surrogate, too_deep

API_PREFIX = "/api/"
ERROR_CODES = {400: "bad_request", 401: "not_authenticated", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 406: "not_acceptable", 413: "too_large", 415: "unsupported_media_type",
               429: "throttled", 500: "server_error", 503: "unavailable"}


def is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


def error_response(request, status: int, detail: str, code: str | None = None) -> HttpResponse:
    """The site's error answer: the JSON shape under /api/, a small plain page elsewhere."""
    code = code or ERROR_CODES.get(status, "error")
    if is_api(request):
        return JsonResponse({"error": code, "detail": detail}, status=status)
    return HttpResponse(f"<!doctype html><title>{status}</title><h1>{status}</h1><p>{_escape(detail)}</p>",
                        status=status, content_type="text/html; charset=utf-8")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _has_nul(request) -> bool:
    if "\x00" in request.path or "\x00" in request.path_info:
        return True
    query = request.META.get("QUERY_STRING", "")
    if "\x00" in query or b"\x00" in unquote_to_bytes(query):
        return True
    if any(isinstance(v, str) and "\x00" in v for k, v in request.META.items() if k.startswith("HTTP_")):
        return True
    # A quoted cookie value may spell NUL as an octal escape ("\000"): the session key read from it.
    return any("\x00" in v for v in request.COOKIES.values())


def _body_problem(request) -> tuple[int, str] | None:
    """(status, detail) if the body must be refused."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is not None and length > limit:
        return 413, _("The request body is too large.")
    if request.method in ("GET", "HEAD", "OPTIONS") or not length:
        return None
    ctype = request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
    if ctype.startswith("multipart/"):
        # Parsed by Django (its own limits apply); a NUL in a field would reach PostgreSQL.
        try:
            if _multipart_not_utf8(request.body, request.META.get("CONTENT_TYPE", "")):
                return 400, NOT_UTF8()
            fields = request.POST
        except MultiPartParserError:
            return 400, _("The multipart body is malformed.")
        if any("\x00" in key or any("\x00" in v for v in values) for key, values in fields.lists()):
            return 400, _("The request contains a NUL character.")
        return None
    body = request.body  # read once (≤ the limit); Django parses POST from the cached copy
    if b"\x00" in body:
        return 400, _("The request contains a NUL character.")
    if ctype.endswith("json"):
        if b"\\u0000" in body:
            return 400, _("The request contains a NUL character.")
        if too_deep(body):
            return 400, _("The JSON body is nested too deeply (at most %(depth)s levels).") % {"depth": MAX_JSON_DEPTH}
        if _lone_surrogate(body):
            return 400, _("The JSON body holds a lone surrogate (\\ud800-\\udfff), which is no text.")
    elif b"%00" in body:
        return 400, _("The request contains a NUL character.")
    elif ctype == "application/x-www-form-urlencoded" and not _form_is_utf8(body):
        return 400, NOT_UTF8()
    return None


def NOT_UTF8() -> str:  # translated when refused
    return _("The request is not valid UTF-8 text: send form fields and query strings encoded as UTF-8.")


def _form_is_utf8(raw: bytes) -> bool:
    """Every name and value of an urlencoded form (or query string) spells UTF-8 once decoded."""
    try:
        for pair in raw.split(b"&"):
            unquote_to_bytes(pair.replace(b"+", b" ")).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _multipart_not_utf8(body: bytes, content_type: str) -> bool:
    """A multipart body whose part headers or field values (not files) are not UTF-8. A body
    that is no multipart at all is left to Django's parser (its own 400)."""
    match = re.search(r'boundary="?([^";,]+)"?', content_type)
    if not match:
        return False
    for part in body.split(b"--" + match.group(1).encode("latin-1")):
        head, sep, content = part.partition(b"\r\n\r\n")
        if not sep:
            continue
        try:
            head.decode("utf-8")
            if b"filename=" not in head:
                content.removesuffix(b"\r\n").decode("utf-8")
        except UnicodeDecodeError:
            return True
    return False


def _lone_surrogate(body: bytes) -> bool:
    import json

    try:
        value = json.loads(body)  # only when the text spells a surrogate (has_lone_surrogate looks first)
    except ValueError:
        return False  # not JSON: the view's parser answers that
    return has_lone_surrogate(body, value)


# A number in the path longer than any id (a bigint has 19 digits): no such object. The
# <int:...> converter would pass it on, and the database would fail on it (SQLite: OverflowError).
HUGE_NUMBER_IN_PATH = re.compile(r"(^|/)\d{19,}(?=/|$|\.)")


class RequestGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _has_nul(request):
            return error_response(request, 400, _("The request contains a NUL character."))
        if not _form_is_utf8(request.META.get("QUERY_STRING", "").encode("latin-1", "replace")):
            return error_response(request, 400, NOT_UTF8())
        if HUGE_NUMBER_IN_PATH.search(request.path_info):
            return error_response(request, 404, _("Not found."))
        problem = _body_problem(request)
        if problem:
            return error_response(request, *problem)
        response = self.get_response(request)
        if is_api(request) and response.status_code >= 400 and not _is_json(response):
            return _reshape(request, response)
        return response


def _is_json(response) -> bool:
    return "json" in response.get("Content-Type", "")


def _reshape(request, response) -> HttpResponse:
    status = response.status_code
    details = {404: _("Not found."), 405: _("Method \"%(method)s\" not allowed.") % {"method": request.method},
               500: _("A server error occurred."), 413: _("The request body is too large.")}
    new = JsonResponse({"error": ERROR_CODES.get(status, "error"),
                        "detail": details.get(status) or _plain_detail(response)}, status=status)
    for header in ("Allow", "Retry-After", "WWW-Authenticate"):
        if header in response:
            new[header] = response[header]
    return new


def _plain_detail(response) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(response.status_code).phrase + "."
    except ValueError:
        return "Error."

