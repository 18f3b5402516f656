"""Size and server time of the game page (the table), in one process: an Alchemist match
(3 players) and a Der Orden match (2 players), each some moves in, driven by Django's test
client. The page is requested by the player to move (board + move controls rendered).

    python bench/match_page.py [--requests 40] [--moves 12]

Uses the database of DATABASE_URL (or the embedded SQLite in var/ when unset); creates its own
users (bench_table_*) and matches each run. Prints wall and CPU ms (p50/p95), Python function calls
(load-independent), SQL statements and bytes for /matches/<id>/ and its live part /matches/<id>/live/."""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT), str(ROOT / "bench")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.pop("REDIS_URL", None)  # pages only: no pushes, no broker


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def make_match(game: str, players: int, moves: int, prefix: str, names: list[str] | None = None,
               until=None):
    """A match between fresh users (``names`` or generated ones), ``moves`` bot-chosen moves in,
    submitted as the users (and on until ``until(state)`` holds, if given). Returns the match and
    the user to move."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from games import registry
    from games.rng import Rng
    from matches import services
    from matches.models import Match

    User = get_user_model()
    names = names or [f"{prefix}{game[:3]}{i}" for i in range(players)]
    users = [User.objects.create_user(name, password="x") for name in names[:players]]
    with transaction.atomic():
        match = services.start_match(game=game, entrants=[{"user": u, "bot": "", "choices": {}} for u in users],
                                     options={}, seed=7)
    plugin = registry.get(game)
    rng = Rng(11)
    by_seat = {s.seat: s.user for s in match.seats.select_related("user")}
    for made in range(moves + 60):
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.ACTIVE or (made >= moves and (until is None or until(match.state))):
            break
        seat = match.to_move[0]
        action = services.bot_action(plugin, "random", match.state, seat, rng)
        services.submit_action(match.pk, by_seat[seat], action, match.version)
    match = Match.objects.get(pk=match.pk)
    return match, by_seat[match.to_move[0]] if match.to_move else by_seat[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=40)
    ap.add_argument("--moves", type=int, default=12)
    args = ap.parse_args()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    call_command("migrate", verbosity=0)
    prefix = "bench_table_" + uuid.uuid4().hex[:6]
    print(f"database {connection.vendor}; load {os.getloadavg()}")
    for game, players in (("alchemist", 3), ("orden", 2)):
        match, mover = make_match(game, players, args.moves, prefix)
        client = Client()
        client.force_login(mover)
        for label, url in (("page", f"/matches/{match.pk}/"), ("live", f"/matches/{match.pk}/live/")):
            for _ in range(3):
                assert client.get(url).status_code == 200, url
            queries = []
            with connection.execute_wrapper(lambda ex, sql, *a: (queries.append(sql), ex(sql, *a))[1]):
                r = client.get(url)
            walls, cpus = [], []
            for _ in range(args.requests):
                c0, w0 = time.process_time(), time.perf_counter()
                r = client.get(url)
                cpus.append(1000 * (time.process_time() - c0))
                walls.append(1000 * (time.perf_counter() - w0))
            # Python function calls per request: a measure of the server's work that, unlike the
            # times, does not depend on what else the machine is doing
            prof = cProfile.Profile()
            prof.runcall(client.get, url)
            calls = pstats.Stats(prof).total_calls
            print(f"{game:9} {label:4} wall p50 {statistics.median(walls):6.1f} p95 {pct(walls, 95):6.1f} ms | "
                  f"CPU p50 {statistics.median(cpus):6.1f} ms | {calls} calls | {len(queries)} SQL | "
                  f"{len(r.content)} bytes")


if __name__ == "__main__":
    main()
