"""A WSGI app for the shedding test: every request takes 0.3 s, behind web.shedding."""
import time

from web.shedding import shed_late_api


def _slow(environ, start_response):
    time.sleep(0.3)
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"served"]


application = shed_late_api(_slow, after_ms=100)
