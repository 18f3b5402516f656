"""A worker killed with SIGKILL in the middle of sending loses nothing and sends nothing
twice: tasks are acknowledged late, each send happens under its Delivery row's lock, "sent"
is committed before the final "." that makes the server take the mail (notifications/smtp.py),
and the flush re-enqueues what was left PENDING. The kill is timed to land while both pool
processes wait for the server's answer. (A kill between that commit and writing the "." --
a fraction of a millisecond -- would lose a mail rather than send it twice.)"""
import time
from collections import Counter
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from notifications import services
from notifications.models import Delivery
from tests.conftest import wait_for
from tests.notifications.helpers import NotificationWorker, SmtpServer, purge_notifications_queue

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.realservices]
N = 120


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
        services.flush(now=timezone.now() + timedelta(minutes=10))
        wait_for(lambda: Delivery.objects.filter(status="sent").count() == N, timeout=90)
        time.sleep(1.0)  # anything sent twice would arrive now
        keys = Counter(m["X-Spieltisch-Key"] for m in server.sink.messages)
        assert len(keys) == N, f"{N - len(keys)} mails lost"
        assert max(keys.values()) == 1, f"sent twice: {[k for k, c in keys.items() if c > 1]}"
        assert not Delivery.objects.exclude(status="sent").exists()
    finally:
        worker.stop()
        server.stop()
