"""Server time of the list pages, in one process (no HTTP server): the lobby and "my games"
pages and their API lists, with 10,000 open invitations and 200 matches of the requesting user,
driven by Django's test client against PostgreSQL.

    python bench/page_profile.py [--requests 50] [--profile lobby_page] [--db spieltisch_pages] [--no-freeze]

Prints wall and CPU ms (p50/p95) and SQL statements per request; --profile NAME shows the top
functions of one page. The database named by --db is dropped and recreated."""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT), str(ROOT / "bench")]


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=50)
    ap.add_argument("--invitations", type=int, default=10_000)
    ap.add_argument("--my-matches", type=int, default=200)
    ap.add_argument("--profile", default="")
    ap.add_argument("--db", default="spieltisch_pages")
    ap.add_argument("--no-freeze", action="store_true", help="leave the start-up heap to the garbage collector")
    args = ap.parse_args()
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"drop database if exists {args.db}"], check=True)
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"create database {args.db}"], check=True)
    os.environ.setdefault("DJANGO_SECRET_KEY", __import__("secrets").token_urlsafe(64))  # config/secretkey.py
    os.environ.update(DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{args.db}", DJANGO_SETTINGS_MODULE="config.settings")
    os.environ.pop("REDIS_URL", None)  # pages only: no pushes, no broker
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    import seed

    data = seed.seed_lists(args.invitations, args.my_matches, "pg")
    from core.warmup import freeze_heap, import_urls

    import_urls()
    if not args.no_freeze:
        freeze_heap()  # as the server processes do at start-up (config/wsgi.py)
    lister = data["lister"]
    client = Client()
    client.cookies["sessionid"] = lister["session"]
    pages = {"lobby_page": ("/lobby/", {}), "my_games_page": ("/my-games/", {}),
             "api_invitations": ("/api/invitations/", {"HTTP_AUTHORIZATION": f"Token {lister['token']}"}),
             "api_my_matches": ("/api/matches/?mine=1", {"HTTP_AUTHORIZATION": f"Token {lister['token']}"})}
    print(f"{args.invitations} invitations, {args.my_matches} matches of the requesting user; load {os.getloadavg()}")
    for name, (url, headers) in pages.items():
        for _ in range(3):
            assert client.get(url, **headers).status_code == 200, url
        with CaptureQueriesContext(connection) as q:
            client.get(url, **headers)
        n_sql = len(q.captured_queries)  # now: the next request's request_started clears the log
        walls, cpus = [], []
        for _ in range(args.requests):
            c0, w0 = time.process_time(), time.perf_counter()
            r = client.get(url, **headers)
            cpus.append(1000 * (time.process_time() - c0))
            walls.append(1000 * (time.perf_counter() - w0))
            assert r.status_code == 200
        print(f"{name:16} wall p50 {statistics.median(walls):6.1f} p95 {pct(walls, 95):6.1f} ms | CPU p50 "
              f"{statistics.median(cpus):6.1f} p95 {pct(cpus, 95):6.1f} ms | {n_sql} SQL | "
              f"{len(r.content) // 1024} KiB")
        if name == args.profile:
            prof = cProfile.Profile()
            prof.runcall(client.get, url, **headers)
            pstats.Stats(prof).sort_stats("cumulative").print_stats(45)


if __name__ == "__main__":
    main()
