"""Load shedding for the HTTP API under gunicorn: refuse what waited too long in the queue.

A WSGI application cannot see how long a request waited before a thread took it, so under
overload the API queued without bound (measured at twice its capacity: answers p99 6.5 s).
``QueueTimedWorker`` (gunicorn's threaded worker, ``-k web.shedding.QueueTimedWorker``)
notes when each request became ready to read (a new connection accepted, a kept-alive one
readable); ``shed_late_api`` answers an API request that waited longer than ``SHED_AFTER_MS``
(default 500) with 503 + Retry-After before Django sees it — the client backs off and sends
it again, and the requests that are served stay fast. Pages are never shed: a person would
rather wait than read an error. Without the worker (the embedded default, any other server)
nothing is shed.
"""
from __future__ import annotations

import json
import os
import threading
import time

from gunicorn.workers.gthread import ThreadWorker

_local = threading.local()
RETRY_AFTER_S = 1


def waited_s() -> float | None:
    """How long the current request waited for a thread (None: not under QueueTimedWorker)."""
    ready = getattr(_local, "ready_at", None)
    return None if ready is None else time.monotonic() - ready


class QueueTimedWorker(ThreadWorker):
    def enqueue_req(self, conn):
        conn.ready_at = time.monotonic()
        super().enqueue_req(conn)

    def handle_request(self, req, conn):
        _local.ready_at = getattr(conn, "ready_at", None)
        try:
            return super().handle_request(req, conn)
        finally:
            _local.ready_at = None


def shed_late_api(app, after_ms: float | None = None):
    """Wrap the WSGI ``app``: API requests that waited longer than ``after_ms`` get a 503."""
    limit = (float(os.environ.get("SHED_AFTER_MS", "500")) if after_ms is None else after_ms) / 1000
    body = json.dumps({"error": "busy", "detail": "The server is busy; send the request again shortly.",
                       "retry_after": RETRY_AFTER_S}).encode()
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
               ("Retry-After", str(RETRY_AFTER_S)), ("Cache-Control", "no-store")]

    def application(environ, start_response):
        waited = waited_s()
        if waited is not None and waited > limit and environ.get("PATH_INFO", "").startswith("/api/"):
            start_response("503 Service Unavailable", list(headers))
            return [body]
        return app(environ, start_response)

    return application
