"""CPU per move on the server path, in one process (no HTTP server, no network client): the
real request stack (middleware, DRF, token auth, throttling, the single writer, the after-commit
pushes, clocks and notifications) driven by Django's test client against PostgreSQL + Redis.

    python bench/move_profile.py [--moves 300] [--via http|service] [--profile 40] [--matches 1] [--db spieltisch_prof]

Prints CPU ms per move (process time, so other load on the machine counts less than in wall
time) and SQL statements per move; with --profile N the top functions of a cProfile run.
The database named by --db is dropped and recreated, the Redis database of --redis flushed.
MATCH_FOLLOW_UP_IN_WORKER=0 measures the follow-up (clocks, notifications) inline, as before;
--follow-up runs it inline and also reports its own share (CPU, statements per move; with --sql
one move's follow-up statements). --batch K instead collects the moves' follow-ups and runs them as
the worker does (``announce_changes`` over batches of K changes, the deliveries published once per
batch), reporting the worker's CPU and statements per change (with --profile N: its top functions)."""
from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--profile", type=int, default=0, help="show the top N functions")
    ap.add_argument("--sql", action="store_true", help="print one move's SQL statements")
    ap.add_argument("--follow-up", action="store_true",
                    help="run the follow-up inline and report its CPU and statements separately")
    ap.add_argument("--via", default="http", choices=["http", "service"],
                    help="http: the API request; service: services.submit_action, as a socket move calls it")
    ap.add_argument("--batch", type=int, default=0,
                    help="run the follow-ups as the worker does, K changes per announce_changes task")
    ap.add_argument("--profile-starts", type=int, default=0, help="--batch: the top N functions of the starts' batch")
    ap.add_argument("--matches", type=int, default=1, help="matches played in turn (each by its own players)")
    ap.add_argument("--db", default="spieltisch_prof")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    args = ap.parse_args()
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"drop database if exists {args.db}"], check=True)
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"create database {args.db}"], check=True)
    # Our own Redis database: the follow-up tasks queued by the moves (no worker runs here) go away.
    subprocess.run(["redis-cli", "-u", args.redis, "flushdb"], check=True, capture_output=True)
    if args.follow_up and args.batch:
        ap.error("--follow-up and --batch measure the follow-up in two different ways: choose one")
    if args.follow_up:
        os.environ["MATCH_FOLLOW_UP_IN_WORKER"] = "0"
    if args.batch:
        os.environ["MATCH_FOLLOW_UP_IN_WORKER"] = "1"
    os.environ.setdefault("DJANGO_SECRET_KEY", __import__("secrets").token_urlsafe(64))  # config/secretkey.py
    os.environ.update(DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{args.db}", REDIS_URL=args.redis,
                      DJANGO_SETTINGS_MODULE="config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    from games import registry
    from matches.services import start_match

    from matches import services as match_services

    follow = {"cpu": 0.0, "n": 0, "statements": 0, "calls": 0, "sql": None, "capture": False}
    if args.follow_up:  # the follow-up's own share, measured around send_change_signals
        send = match_services.send_change_signals

        def measured(*a, **kw):
            if follow["capture"]:  # statements only while counting (recording them costs CPU)
                with CaptureQueriesContext(connection) as q:
                    send(*a, **kw)
                follow["calls"] += 1
                follow["statements"] += len(q.captured_queries)
                follow["sql"] = [query["sql"] for query in q.captured_queries]
                return
            # This thread's CPU only: the frames' background loop runs meanwhile in another.
            c0 = time.thread_time()
            if follow.get("prof"):
                follow["prof"].runcall(send, *a, **kw)
            else:
                send(*a, **kw)
            follow["cpu"] += time.thread_time() - c0
            follow["n"] += 1

        match_services.send_change_signals = measured

    collected: list[list] = []
    if args.batch:  # the follow-ups wait here instead of going to the broker
        from matches import followups

        followups.submit = lambda *item: collected.append(list(item))

    User = get_user_model()
    # --matches M: M matches played in turn, each by its own four players (as the bench's clients).
    users = [User.objects.create(username=f"prof{i}", email=f"prof{i}@example.org") for i in range(4 * args.matches)]
    from accounts.verification import mark_confirmed

    mark_confirmed(users)  # notification mail goes to confirmed addresses only
    token_of = {u.pk: Token.objects.create(user=u).key for u in users}
    engine = registry.get("alchemist").engine
    rng = random.Random(1)
    client = Client()
    games: list[dict] = []

    def new_match(seed, players):
        with transaction.atomic():
            m = start_match(game="alchemist", entrants=[{"user": u, "bot": "", "choices": {}} for u in players],
                            options={}, public=True, seed=seed)
        seats = list(m.seats.order_by("seat").select_related("user"))
        return {"id": m.pk, "state": m.state, "version": m.version, "players": players,
                "users": [s.user for s in seats], "tokens": [token_of[s.user_id] for s in seats]}

    def play(n):
        cpu = wall = 0.0
        for step in range(n):
            game = games[step % len(games)]
            if engine.outcome(game["state"]) is not None:
                game.update(new_match(rng.randrange(10**6), game["players"]))
            match_id, state, version = game["id"], game["state"], game["version"]
            seat = engine.to_move(state)[0]
            action = rng.choice(engine.legal_actions(state, seat))
            c0, w0 = time.process_time(), time.perf_counter()
            if args.via == "service":
                match_services.submit_action(match_id, game["users"][seat], action, version)
            else:
                r = client.post(f"/api/matches/{match_id}/actions/", json.dumps({"action": action, "version": version}),
                                content_type="application/json", HTTP_AUTHORIZATION=f"Token {game['tokens'][seat]}")
            cpu += time.process_time() - c0
            wall += time.perf_counter() - w0
            if args.via == "http":
                assert r.status_code == 200, r.content
            game["state"], game["version"] = engine.apply(state, seat, action).state, version + 1
        return cpu, wall

    # As under the ASGI server: the request runs in a worker thread of a running event loop, so
    # the pushes' async_to_sync hops back to that loop and reuse its Redis connections.
    import asyncio

    from asgiref.sync import sync_to_async

    def in_server_loop(fn, *a):
        async def outer():
            return await sync_to_async(fn, thread_sensitive=True)(*a)
        return loop.run_until_complete(outer())

    loop = asyncio.new_event_loop()
    for i in range(args.matches):
        games.append(in_server_loop(new_match, i + 1, users[4 * i:4 * i + 4]))
    in_server_loop(play, 20)  # warm up: imports, templates, connections

    def counted(n):
        with CaptureQueriesContext(connection) as q:
            play(n)
        return len(q.captured_queries)

    follow.update(capture=True)
    statements = in_server_loop(counted, 20)
    follow.update(cpu=0.0, n=0, capture=False)
    cpu, wall = in_server_loop(play, args.moves)
    print(f"moves {args.moves}: CPU {1000 * cpu / args.moves:.2f} ms/move, wall {1000 * wall / args.moves:.2f} ms/move, "
          f"SQL {statements / 20:.1f} statements/move")
    if args.follow_up and follow["n"]:
        print(f"follow-up (send_change_signals, {follow['n']} calls, its thread's CPU): "
              f"CPU {1000 * follow['cpu'] / args.moves:.2f} ms/move, "
              f"SQL {follow['statements'] / follow['calls']:.1f} statements/call (both included above)")
    if args.batch:
        run_batches(collected, args)
        return
    if args.sql:
        follow["capture"] = True

        def show(n):
            with CaptureQueriesContext(connection) as q:
                play(n)
            for query in q.captured_queries:
                print(query["sql"][:160])
        in_server_loop(show, 1)
        if args.follow_up and follow["sql"]:
            print("-- the follow-up's statements of that move:")
            for sql in follow["sql"]:
                print(sql[:160])
    if args.profile and args.follow_up:  # only the follow-up
        prof = follow["prof"] = cProfile.Profile(time.thread_time)
        in_server_loop(play, min(args.moves, 200))
        pstats.Stats(prof).sort_stats("cumulative").print_stats(args.profile)
        pstats.Stats(prof).sort_stats("tottime").print_stats(args.profile // 2)
    elif args.profile:
        prof = cProfile.Profile(time.thread_time)  # CPU of the request thread, not waits
        in_server_loop(prof.runcall, play, min(args.moves, 200))  # the request thread's side
        pstats.Stats(prof).sort_stats("cumulative").print_stats(args.profile)
        pstats.Stats(prof).sort_stats("tottime").print_stats(args.profile // 2)


def run_batches(collected: list[list], args) -> None:
    """The collected follow-ups as the worker runs them: a task per K changes, its sends
    published at its end (the task_prerun/postrun hooks of notifications.apps)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from matches.tasks import announce_changes
    from notifications import outbox

    def task(batch):
        outbox.start_collecting()
        announce_changes.run(batch)
        outbox.publish_collected()

    # The matches' starts (the first M changes, with more to do) and the first batch warm up;
    # the last two batches are counted (recording statements costs CPU); the rest are timed.
    c0 = time.process_time()
    if args.profile_starts:
        prof = cProfile.Profile()
        prof.runcall(task, collected[:args.matches])
    else:
        task(collected[:args.matches])
    print(f"match starts' follow-up in one batch ({args.matches}): CPU "
          f"{1000 * (time.process_time() - c0) / args.matches:.2f} ms/start")
    if args.profile_starts:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(args.profile_starts)
    rest = collected[args.matches:]
    batches = [rest[i:i + args.batch] for i in range(0, len(rest), args.batch)]
    warm, timed, counting = batches[:1], batches[1:-2], batches[-2:]
    for batch in warm:
        task(batch)
    prof = cProfile.Profile() if args.profile else None
    c0 = time.process_time()
    for batch in timed:
        prof.runcall(task, batch) if prof else task(batch)
    cpu = time.process_time() - c0
    with CaptureQueriesContext(connection) as q:
        for batch in counting:
            task(batch)
    changes = sum(map(len, counting))
    n = sum(map(len, timed))
    print(f"follow-up in batches of {args.batch} ({n} changes timed): CPU {1000 * cpu / max(n, 1):.2f} ms/change, "
          f"SQL {len(q.captured_queries) / max(changes, 1):.2f} statements/change")
    if args.sql:
        for query in q.captured_queries[:40]:
            print(query["sql"][:160])
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(args.profile)
        pstats.Stats(prof).sort_stats("tottime").print_stats(args.profile // 2)


if __name__ == "__main__":
    main()
