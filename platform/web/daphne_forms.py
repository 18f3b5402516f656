"""Daphne runs on Twisted, whose ``http.Request`` parses a POSTed multipart body itself (into
``request.args``, which daphne never reads) before daphne sees the request; a body it cannot
parse is answered there with a bare ``400 Bad Request`` (no body, no headers) and the
connection closed, so the API's JSON error never had a chance. Twisted has a switch for it
(``parsePOSTFormSubmission``); daphne does not pass it, so it is turned off here. Django then
parses the body (web.guard answers a malformed one in the site's error shape), as under
uvicorn and gunicorn. It also saves Twisted's second copy of every form body."""
from __future__ import annotations

import sys


def patch() -> None:
    module = sys.modules.get("daphne.http_protocol")
    if module is None or getattr(module.WebRequest, "_spieltisch_forms_left_to_django", False):
        return
    original = module.WebRequest.__init__

    def __init__(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self._parsePOSTFormSubmission = False

    module.WebRequest.__init__ = __init__
    module.WebRequest._spieltisch_forms_left_to_django = True
