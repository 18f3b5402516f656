"""Real parts for notification tests: an aiosmtpd SMTP server, an HTTP endpoint that takes
web pushes, and a Celery worker on the ``notifications`` queue that sends to them."""
from __future__ import annotations

import base64
import email
import email.policy
import os
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from aiosmtpd.controller import Controller

from tests.addresses import free_port

ROOT = Path(__file__).resolve().parents[2]


class MailSink:
    """Collects every message the SMTP server accepts."""

    def __init__(self, delay: float = 0.0):
        self.messages: list[email.message.EmailMessage] = []
        self.lock = threading.Lock()
        self.delay = delay
        self.in_progress = 0  # messages taken but not yet answered with 250

    async def handle_DATA(self, server, session, envelope):
        # Like an MTA: the message is taken once its final "." arrived, then answered (after
        # ``delay``: fsync, filters) -- even if the client is gone by then.
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append(msg)
        self.in_progress += 1
        try:
            if self.delay:
                import asyncio

                await asyncio.sleep(self.delay)
        finally:
            self.in_progress -= 1
        return "250 OK"

    def to(self, address: str) -> list:
        with self.lock:
            return [m for m in self.messages if address in m["To"]]

    def clear(self) -> None:
        with self.lock:
            self.messages.clear()


class SmtpServer:
    def __init__(self, delay: float = 0.0):
        self.sink = MailSink(delay)
        self.port = free_port()
        self.controller = Controller(self.sink, hostname="127.0.0.1", port=self.port)

    def start(self):
        self.controller.start()
        return self

    def stop(self):
        self.controller.stop()

    def restart(self):
        """The same address again (a Controller cannot be started twice)."""
        self.controller = Controller(self.sink, hostname="127.0.0.1", port=self.port)
        return self.start()

    @property
    def env(self) -> dict:
        return {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(self.port)}


def body(msg) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content()


class PushEndpoint:
    """A stand-in push service: stores each POST (headers, body) and answers 201."""

    def __init__(self):
        self.received: list[dict] = []
        self.status = 201
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                data = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.received.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": data})
                self.send_response(outer.status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


def browser_keys():
    """What a browser's PushManager makes: a P-256 key pair and a 16-byte auth secret."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint)
    auth = os.urandom(16)
    b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()  # noqa: E731
    return private, auth, {"p256dh": b64(public), "auth": b64(auth)}


def decrypt_push(body: bytes, private, auth: bytes) -> bytes:
    import http_ece

    return http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm")


class NotificationWorker:
    """A Celery worker process on the ``notifications`` queue, with the SMTP server's address.
    None of this exists on the embedded default (tasks run in-process)."""

    def __init__(self, extra_env: dict, concurrency: int = 2, name: str = "notif"):
        from django.conf import settings

        from tests.support.worker import test_database_url

        self.name = f"{name}-{os.getpid()}-{free_port()}@localhost"
        self.env = {**os.environ, "DATABASE_URL": test_database_url(), "REDIS_URL": settings.REDIS_URL,
                    "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}", "SPIELTISCH_EXTRA_GAMES": "tests.support.minigame",
                    **extra_env}
        self.concurrency = concurrency
        self.proc = None

    def start(self):
        from config.celery import app

        log = open(ROOT / "var" / "test-notifications-worker.log", "a")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "info", "-Q", "notifications",
             "-c", str(self.concurrency), "--without-gossip", "--without-mingle", "-n", self.name],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("notification worker exited; see var/test-notifications-worker.log")
            if app.control.ping(destination=[self.name], timeout=0.5):
                return self
        self.kill()
        raise RuntimeError("notification worker did not answer within 60 s")

    def kill(self):
        """SIGKILL to the worker and its pool processes: no goodbye, no acks."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def purge_notifications_queue():
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("notifications")


def wait_workers_idle(timeout: float = 30.0) -> None:
    """Real services: wait until no worker runs or holds a task, so that the test database is
    not flushed under a running task (which deadlocks the flush)."""
    from django.conf import settings

    if not settings.REDIS_URL:
        return
    from config.celery import app

    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline:
        inspect = app.control.inspect(timeout=0.3)
        busy = [t for replies in (inspect.active() or {}, inspect.reserved() or {}) for ts in replies.values()
                for t in ts]
        with app.connection_for_read() as conn:  # (the notifications queue may have no worker here)
            queued = conn.default_channel.client.llen("celery")
        quiet = quiet + 1 if not busy and not queued else 0
        if quiet >= 2:
            return
        time.sleep(0.2)


def fall_due(after_minutes: float = 120):
    """The notification sweep as it runs ``after_minutes`` from now: the deferred notices
    (your turn, chat, start, end: notifications/attention.py) that are due by then are decided."""
    from datetime import timedelta

    from django.utils import timezone

    from notifications import services

    return services.flush(now=timezone.now() + timedelta(minutes=after_minutes))
