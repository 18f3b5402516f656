"""An SMTP client that lets the caller commit "sent" between handing over a message and the
final "." with which the server takes it (one connection per worker thread, reused).

Why: a server takes a mail once its final "." arrived, even if the client dies before the
answer (as MTAs do). So "sent" is committed first: a worker killed before that commit leaves
the server a half message it discards, and the retry sends it once; a worker killed while
waiting for the answer has committed already, so nothing is sent twice. What stays in doubt
is a kill between the commit and writing the "." (a fraction of a millisecond): that mail
is lost, not duplicated.
"""
from __future__ import annotations

import re
import smtplib
import ssl
import threading

from django.conf import settings

_local = threading.local()
_EOL = re.compile(rb"\r\n|\n|\r(?!\n)")
_DOT = re.compile(rb"(?m)^\.")


class Transaction:
    def __init__(self, conn: smtplib.SMTP):
        self.conn = conn

    def finish(self) -> None:
        """Send the final "." and require 250; on failure the connection is dropped."""
        try:
            self.conn.send(b".\r\n")
            code, reply = self.conn.getreply()
        except Exception:
            _drop()
            raise
        if code != 250:
            _drop()
            raise smtplib.SMTPDataError(code, reply)

    def abort(self) -> None:
        _drop()  # closing without "." discards the message on the server


def _connect() -> smtplib.SMTP:
    conn = smtplib.SMTP(settings.EMAIL_HOST, int(settings.EMAIL_PORT), timeout=getattr(settings, "EMAIL_TIMEOUT", None) or 30)
    if getattr(settings, "EMAIL_USE_TLS", False):
        conn.starttls(context=ssl.create_default_context())
    if getattr(settings, "EMAIL_HOST_USER", ""):
        conn.login(settings.EMAIL_HOST_USER, settings.EMAIL_HOST_PASSWORD)
    return conn


def _drop() -> None:
    conn = getattr(_local, "conn", None)
    _local.conn = None
    if conn is not None:
        try:
            conn.close()
        except Exception:
            pass


def begin(from_addr: str, to_addrs: list[str], message: bytes) -> Transaction:
    """MAIL, RCPT, DATA and the message, without the final "." (a reused connection that
    went stale is reopened once)."""
    data = _DOT.sub(b"..", _EOL.sub(b"\r\n", message))
    if not data.endswith(b"\r\n"):
        data += b"\r\n"
    for attempt in (0, 1):
        fresh = getattr(_local, "conn", None) is None
        if fresh:
            _local.conn = _connect()
        conn = _local.conn
        try:
            conn.ehlo_or_helo_if_needed()
            code, reply = conn.mail(from_addr)
            if code != 250:
                raise smtplib.SMTPSenderRefused(code, reply, from_addr)
            for to in to_addrs:
                code, reply = conn.rcpt(to)
                if code not in (250, 251):
                    raise smtplib.SMTPRecipientsRefused({to: (code, reply)})
            code, reply = conn.docmd("data")
            if code != 354:
                raise smtplib.SMTPDataError(code, reply)
            conn.send(data)
            return Transaction(conn)
        except (smtplib.SMTPResponseException, smtplib.SMTPRecipientsRefused):
            _drop()  # the server refused: no retry on this connection
            raise
        except OSError:  # includes SMTPServerDisconnected: a stale reused connection
            _drop()
            if fresh or attempt:
                raise
    raise smtplib.SMTPServerDisconnected("could not send")  # not reached


def send(from_addr: str, to_addrs: list[str], message: bytes) -> None:
    begin(from_addr, to_addrs, message).finish()


def uses_smtp() -> bool:
    return settings.EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend"
