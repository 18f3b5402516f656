"""A worker killed with SIGKILL in the middle of sending loses nothing and delivers nothing
twice: tasks are acknowledged late, a sender sends only the rows it claimed (PENDING →
SENDING under the row lock), commits "sent" after each 250, and the flush sends again what a
dead sender left SENDING -- with the same Message-ID. A row left SENDING may or may not have
reached the server (killed before or after the final "."); rather than lose it, it is sent
again, and the repeat carries the Message-ID of the first copy, by which the receiving side
drops it (notifications/mail.py). The real kill is timed to land while both pool processes
wait for the server's answer to their "." -- the one window in which the server can get a
second copy; the in-process tests below take each side of the "." deterministically."""
import email
import email.policy
import time
from collections import Counter
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from django.conf import settings
from django.utils import timezone

from notifications import services
from notifications.models import Delivery
from tests.conftest import wait_for
from tests.notifications.helpers import MailSink, NotificationWorker, SmtpServer, purge_notifications_queue, wait_workers_idle

pytestmark = [pytest.mark.django_db(transaction=True)]
N = 120


@pytest.mark.realservices
@pytest.mark.skipif(not settings.REDIS_URL, reason="needs a separate worker process (real services); "
                    "in-process sends have no worker to kill")
def test_killed_worker_loses_nothing_and_sends_nothing_twice(make_user):
    server = SmtpServer(delay=0.1).start()  # slow enough that the kill lands mid-batch
    purge_notifications_queue()
    users = [make_user(f"u{i}") for i in range(N)]
    worker = NotificationWorker(server.env, concurrency=2, name="doomed").start()
    try:
        for u in users:
            services.notify(u, "tournament_paired", {"tournament": "K", "round": 1}, key="paired:kill")
        # Kill while both pool processes wait for the server's answer to their final ".".
        wait_for(lambda: len(server.sink.messages) >= N // 4 and server.sink.in_progress >= 2, timeout=60,
                 interval=0.005)
        worker.kill()
        sent_before = len(server.sink.messages)
        assert sent_before < N, "the worker finished before it was killed; the test proves nothing"
        time.sleep(0.5)
        # A new worker; the beat's flush re-enqueues what the dead one held (its messages stay
        # unacknowledged in Redis until the visibility timeout).
        worker = NotificationWorker(server.env, concurrency=2, name="heir").start()
        # The heir first sends what is still PENDING; only then is the clock moved on, so that
        # the flush takes just the dead worker's SENDING rows as stale (not the heir's own).
        wait_for(lambda: not Delivery.objects.filter(status="pending").exists(), timeout=90)
        wait_workers_idle()
        services.flush(now=timezone.now() + timedelta(minutes=10))
        wait_for(lambda: Delivery.objects.filter(status="sent").count() == N, timeout=90)
        time.sleep(1.0)  # anything sent twice would arrive now
        keys = Counter(m["X-Spieltisch-Key"] for m in server.sink.messages)
        assert len(keys) == N, f"{N - len(keys)} mails lost"
        # Repeats: only the mails in flight at the kill (one connection per pool process),
        # each with the Message-ID of its first copy, so a receiver keeps exactly N.
        repeated = [k for k, c in keys.items() if c > 1]
        assert len(repeated) <= 2 and max(keys.values()) <= 2, repeated
        ids = {}
        for m in server.sink.messages:
            assert ids.setdefault(m["X-Spieltisch-Key"], m["Message-ID"]) == m["Message-ID"]
        assert len(set(ids.values())) == N
        assert not Delivery.objects.exclude(status="sent").exists()
    finally:
        worker.stop()
        server.stop()


class DedupingSink(MailSink):
    """A receiving MTA/mailbox that drops a message whose Message-ID it already has."""

    def __init__(self):
        super().__init__()
        self.offered = 0

    async def handle_DATA(self, server, session, envelope):
        self.offered += 1
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            if msg["Message-ID"] not in {m["Message-ID"] for m in self.messages}:
                self.messages.append(msg)
        return "250 OK"


def _pending_mail(make_user, name):
    user = make_user(name)
    services.notify(user, "tournament_paired", {"tournament": "K", "round": 1}, key=f"paired:{name}")
    return Delivery.objects.get(notification__user=user)


def _resend(delivery):
    """What the flush's task does (run here, with the test's SMTP settings, in both modes)."""
    from notifications import mail

    assert mail.send_batch(delivery.pk) == "sent"


@pytest.fixture
def dedup_smtp(settings):
    sink = DedupingSink()
    server = SmtpServer()
    server.sink = sink
    server.controller = Controller(sink, hostname="127.0.0.1", port=server.port)
    server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    yield sink
    server.stop()


def test_killed_before_the_final_dot_is_sent_again_once(dedup_smtp, make_user, monkeypatch):
    """The sender claimed the row (SENDING, committed) and died before the server took the
    mail: the flush sends it after the stale time, and it arrives once."""
    from notifications import mail, smtp

    monkeypatch.setattr(services, "enqueue", lambda ids, countdown=None: None)  # tasks run by hand
    delivery = _pending_mail(make_user, "ka")

    def killed(*args, **kwargs):
        raise SystemExit("SIGKILL")  # not an Exception: nothing after it runs, like a kill

    with monkeypatch.context() as m:
        m.setattr(smtp, "send", killed)
        with pytest.raises(SystemExit):
            mail.send_batch(delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == "sending" and dedup_smtp.offered == 0
    assert mail.send_batch(delivery.pk) == "skipped"  # a redelivered task does not touch it
    assert services.flush(now=timezone.now() + timedelta(minutes=1)) == 0  # not stale yet
    assert services.flush(now=timezone.now() + timedelta(minutes=10)) == 1
    _resend(delivery)
    assert Delivery.objects.get(pk=delivery.pk).status == "sent"
    assert dedup_smtp.offered == 1 and len(dedup_smtp.messages) == 1


def test_killed_after_the_server_took_it_is_repeated_with_the_same_message_id(dedup_smtp, make_user,
                                                                              monkeypatch):
    """The server answered 250 but the sender died before committing "sent": the row stays
    SENDING and is sent again -- with the same Message-ID, so the receiver keeps one."""
    from notifications import mail, smtp

    monkeypatch.setattr(services, "enqueue", lambda ids, countdown=None: None)  # tasks run by hand
    delivery = _pending_mail(make_user, "kb")
    real_send = smtp.send

    def taken_then_killed(*args, **kwargs):
        real_send(*args, **kwargs)  # the server has it
        raise SystemExit("SIGKILL")

    with monkeypatch.context() as m:
        m.setattr(smtp, "send", taken_then_killed)
        with pytest.raises(SystemExit):
            mail.send_batch(delivery.pk)
    assert Delivery.objects.get(pk=delivery.pk).status == "sending" and dedup_smtp.offered == 1
    assert services.flush(now=timezone.now() + timedelta(minutes=10)) == 1
    _resend(delivery)
    assert Delivery.objects.get(pk=delivery.pk).status == "sent"
    assert dedup_smtp.offered == 2
    assert len(dedup_smtp.messages) == 1  # the repeat was recognized by its Message-ID
    assert dedup_smtp.messages[0]["Message-ID"] == mail.message_id(f"n{delivery.notification_id}.email")
