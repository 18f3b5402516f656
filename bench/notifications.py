#!/usr/bin/env python
"""10,000 notifications mailed at once through Celery + Redis to a local SMTP server (aiosmtpd).

They are reminders ("your time is running out"): the kind that never waits. A "your turn" now
waits for the player's delay and presence (notifications/attention.py; bench/days/attention_sim.py),
and goes out by the same send path when it falls due.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spieltisch_bench REDIS_URL=redis://127.0.0.1:6379/13 \
        .venv/bin/python bench/notifications.py [--smoke] [-n 10000] [--concurrency 4]

The database named in DATABASE_URL is dropped and created afresh (it must not be a real one).
Measured: the time to record and enqueue N notifications (notify(): the centre row, the
delivery rows, the task), and the time until the SMTP server has accepted all N mails, sent by
a real Celery worker on the ``notifications`` queue. Checks that each mail arrived once.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]


def recreate_database(url: str) -> None:
    import dj_database_url
    import psycopg

    cfg = dj_database_url.parse(url)
    name = cfg["NAME"]
    if not name.startswith(("spieltisch_bench", "bench")):
        sys.exit(f"refusing to drop database {name!r}: its name must start with 'spieltisch_bench'")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


class KeyFile:
    """The keys the SMTP sink (bench/smtp_sink.py, its own process) has taken, one per line."""

    def __init__(self, path: Path):
        self.path = path
        path.write_text("")

    @property
    def keys(self) -> list[str]:
        return self.path.read_text().split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=10_000)
    parser.add_argument("--smoke", action="store_true", help="200 notifications: does it work at all")
    parser.add_argument("--concurrency", type=int, default=4, help="worker processes (prefork pool)")
    parser.add_argument("--producers", type=int, default=8,
                        help="threads calling notify() at once (as many web and worker processes would)")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--prefetch", type=int, default=1, help="messages each worker process reserves ahead")
    parser.add_argument("--record-first", action="store_true",
                        help="record every notification first, then start the worker and time the sends alone")
    args = parser.parse_args()
    n = 200 if args.smoke else args.n
    os.environ.setdefault("DJANGO_SECRET_KEY", __import__("secrets").token_urlsafe(64))  # config/secretkey.py
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/spieltisch_bench")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/13")
    recreate_database(os.environ["DATABASE_URL"])

    from tests.addresses import free_port

    (ROOT / "var").mkdir(exist_ok=True)
    sink = KeyFile(ROOT / "var" / "bench-notifications-keys.txt")
    port = free_port()
    smtp = subprocess.Popen([sys.executable, str(ROOT / "bench" / "smtp_sink.py"), str(port), str(sink.path)],
                            stdout=subprocess.PIPE, text=True)
    assert smtp.stdout.readline().strip() == "ready"
    os.environ.update(EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(port), DJANGO_SETTINGS_MODULE="config.settings")

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import transaction

    from config.celery import app
    from matches.services import start_match
    from notifications.models import Delivery
    from notifications.services import match_context, notify

    call_command("migrate", verbosity=0)
    User = get_user_model()
    User.objects.bulk_create([User(username=f"b{i}", email=f"b{i}@example.org") for i in range(n)],
                             batch_size=2000)
    users = list(User.objects.order_by("id"))
    from accounts.verification import mark_confirmed

    mark_confirmed(users)  # notification mail goes to confirmed addresses only
    with transaction.atomic():
        match = start_match(game="alchemist", entrants=[{"user": users[0]}, {"user": users[1]}], options={})
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("notifications")

    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}"}
    log = open(ROOT / "var" / "bench-notifications-worker.log", "w")
    worker = None

    def start_worker():
        proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "notifications",
                                 "-c", str(args.concurrency), "-l", "warning", "--without-gossip",
                                 "--without-mingle", "--prefetch-multiplier", str(args.prefetch),
                                 "-n", f"bench-{os.getpid()}@localhost"], cwd=ROOT, env=env,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        while not app.control.ping(destination=[f"bench-{os.getpid()}@localhost"], timeout=0.5):
            if proc.poll() is not None:
                sys.exit("worker died; see var/bench-notifications-worker.log")
        return proc

    try:
        if not args.record_first:
            worker = start_worker()
        before = len(sink.keys)  # the match start's own mails
        context = match_context(match.pk, None)
        from concurrent.futures import ThreadPoolExecutor

        from django.db import connection

        def produce(part):
            try:
                for u in part:
                    notify(u, "reminder", {**context, "hours_left": 5}, key=f"bench:{u.pk}", match_id=match.pk)
            finally:
                connection.close()

        t0 = time.perf_counter()
        with ThreadPoolExecutor(args.producers) as pool:
            list(pool.map(produce, [users[i::args.producers] for i in range(args.producers)]))
        t_enqueued = time.perf_counter() - t0
        if args.record_first:
            worker = start_worker()
            t0 = time.perf_counter()  # from here: only the sends
        deadline = time.monotonic() + args.timeout
        while len(sink.keys) - before < n and time.monotonic() < deadline:
            time.sleep(0.05)
        t_done = time.perf_counter() - t0
        time.sleep(1.0)  # duplicates would arrive now
        bench_keys = [k for k in sink.keys if k.startswith("n")]
        sent = Delivery.objects.filter(status="sent", notification__key__startswith="bench:").count()
        print(f"notifications: {n}; producer threads: {args.producers}; worker processes: {args.concurrency}; "
              f"prefetch: {args.prefetch}")
        print(f"recorded + enqueued: {t_enqueued:.1f} s ({n / t_enqueued:.0f}/s)")
        since = "the worker started (all recorded before)" if args.record_first else "the first notify"
        print(f"all mails accepted by the SMTP server: {t_done:.1f} s after {since} ({n / t_done:.0f}/s)")
        print(f"mails received: {len(sink.keys) - before}; distinct: {len(set(bench_keys))}; "
              f"deliveries marked sent: {sent}")
        if sent != n or len(sink.keys) - before != n:
            sys.exit("FAILED: lost or duplicated mails")
    finally:
        if worker is not None:
            os.killpg(worker.pid, 15)
            worker.wait(timeout=30)
        smtp.terminate()
        smtp.wait(timeout=30)


if __name__ == "__main__":
    main()
