"""Size and server time of the game page (the table), in one process: an Alchemist match
(3 players) and a Der Orden match (2 players), each some moves in, driven by Django's test
client. The page is requested by the player to move (board + move controls rendered).

    python bench/match_page.py [--requests 40] [--moves 12]
    python bench/match_page.py --parts [--renders 20] [--record FILE | --check FILE] [--dump DIR]

Uses the database of DATABASE_URL (or the embedded SQLite in var/ when unset); creates its own
users (bench_table_*) and matches each run. Prints wall and CPU ms (p50/p95), Python function calls
(load-independent), SQL statements and bytes for /matches/<id>/ and its live part /matches/<id>/live/.

--parts: the live part as the match socket renders it after every move (frontend/live_push.py
``render_part``), for every seat and a spectator of Alchemist (2-4 players, the player to move with
many design options, a finished match), Der Orden and Goofspiel matches. In a fresh SQLite file
(var/bench-parts.sqlite3, so ids and names, hence the HTML, are the same every run): CPU ms per
render (median of --renders), SQL statements, bytes and a hash of the HTML (CSRF tokens blanked;
"ws" also ignores whitespace). --record FILE keeps the hashes, --check FILE compares with them,
--dump DIR writes each part's HTML."""
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
               until=None, options: dict | None = None):
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
                                     options=options or {}, seed=7)
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


def _alchemist_designs_at_least(n: int):
    """until(state): the seat to move has at least ``n`` design actions (recipes x value tiles)."""
    from games import registry

    engine = registry.get("alchemist").engine

    def until(state):
        to_move = engine.to_move(state)
        return bool(to_move) and sum(a["type"] == "design" for a in engine.legal_actions(state, to_move[0])) >= n
    return until


# (label, game, players, moves, options, until): the matches --parts renders
PART_MATCHES = (
    ("alchemist-2p", "alchemist", 2, 6, {}, lambda: _alchemist_designs_at_least(40)),
    ("alchemist-3p", "alchemist", 3, 6, {}, lambda: _alchemist_designs_at_least(60)),
    ("alchemist-4p", "alchemist", 4, 8, {}, lambda: _alchemist_designs_at_least(60)),
    ("alchemist-3p-noschools", "alchemist", 3, 4, {"no_schools": True}, lambda: _alchemist_designs_at_least(30)),
    ("alchemist-3p-finished", "alchemist", 3, 400, {}, lambda: None),
    ("orden-2p", "orden", 2, 12, {}, lambda: None),
    ("orden-4p", "orden", 4, 16, {}, lambda: None),
    ("goofspiel-2p", "goofspiel", 2, 4, {}, lambda: None),
    ("goofspiel-4p", "goofspiel", 4, 4, {}, lambda: None),
)


def _normalized(html: str) -> str:
    import re

    return re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]*"', r'\1"', html)


def parts(args) -> None:
    import hashlib
    import json

    from django.contrib.auth.models import AnonymousUser
    from django.db import connection, reset_queries
    from django.middleware.csrf import _get_new_csrf_string

    from frontend.live_push import render_part

    csrf_cookie = _get_new_csrf_string()
    load0 = os.getloadavg()
    results = {}
    print(f"database {connection.vendor}; {args.renders} renders each (median); load {load0}")
    print(f"{'match / seat':40} {'CPU ms':>7} {'wall ms':>8} {'calls':>7} {'SQL':>4} {'bytes':>7}  hash (ws)")
    for label, game, players, moves, options, until in PART_MATCHES:
        names = [f"{label.replace('-', '_')}_{i}" for i in range(players)]
        match, mover = make_match(game, players, moves, "", names=names, until=until(), options=options)
        seats = sorted(match.seats.select_related("user"), key=lambda s: s.seat)
        viewers = [(f"seat {s.seat}{' (to move)' if s.seat in match.to_move else ''}", s.user) for s in seats]
        viewers.append(("spectator", AnonymousUser()))
        for who, user in viewers:
            for _ in range(2):  # warm: templates, translations, caches
                _version, html = render_part(match.pk, user, "de", csrf_cookie)
            connection.force_debug_cursor = True
            reset_queries()
            render_part(match.pk, user, "de", csrf_cookie)
            n_sql = len(connection.queries)
            if args.profile and args.profile == f"{label} {who.split(' (')[0]}":
                for q in connection.queries:
                    print("SQL", q["sql"][:300])
            connection.force_debug_cursor = False
            cpus, walls = [], []
            for _ in range(args.renders):
                c0, w0 = time.process_time(), time.perf_counter()
                render_part(match.pk, user, "de", csrf_cookie)
                cpus.append(1000 * (time.process_time() - c0))
                walls.append(1000 * (time.perf_counter() - w0))
            prof = cProfile.Profile()
            prof.runcall(render_part, match.pk, user, "de", csrf_cookie)
            calls = pstats.Stats(prof).total_calls  # the work, whatever the machine's load
            html = _normalized(html)
            key = f"{label} {who.split(' (')[0]}"
            if key == args.profile:
                prof = cProfile.Profile()
                for _ in range(5):
                    prof.runcall(render_part, match.pk, user, "de", csrf_cookie)
                pstats.Stats(prof).sort_stats(args.sort).print_stats(45)
            exact = hashlib.sha256(html.encode()).hexdigest()[:16]
            ws = hashlib.sha256("".join(html.split()).encode()).hexdigest()[:16]
            results[key] = {"hash": exact, "ws": ws, "cpu_ms": round(statistics.median(cpus), 2), "calls": calls,
                            "sql": n_sql}
            print(f"{label + ' ' + who:40} {statistics.median(cpus):7.1f} {statistics.median(walls):8.1f} "
                  f"{calls:7} {n_sql:4} {len(html.encode()):7}  {exact} ({ws})")
            if args.dump:
                Path(args.dump).mkdir(parents=True, exist_ok=True)
                Path(args.dump, key.replace(" ", "_") + ".html").write_text(html)
    print(f"load {os.getloadavg()}")
    if args.record:
        Path(args.record).write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    if args.check:
        before = json.loads(Path(args.check).read_text())
        bad = [k for k in before if k not in results or results[k]["ws"] != before[k]["ws"]]
        same = [k for k in before if k in results and results[k]["hash"] == before[k]["hash"]]
        print(f"hashes: {len(same)}/{len(before)} byte-identical, "
              f"{len(before) - len(bad)}/{len(before)} identical but for whitespace")
        for k in bad:
            print(f"  DIFFERS: {k}")
        for k in before:
            if k in results:
                b, a = before[k], results[k]
                print(f"  {k:34} CPU ms {b['cpu_ms']:6.1f} -> {a['cpu_ms']:6.1f} | calls {b.get('calls', 0):7} -> "
                      f"{a['calls']:7} | SQL {b.get('sql', 0):3} -> {a['sql']:3}")
        if bad:
            sys.exit(1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=40)
    ap.add_argument("--moves", type=int, default=12)
    ap.add_argument("--parts", action="store_true", help="the live part per seat, as the match socket renders it")
    ap.add_argument("--renders", type=int, default=20)
    ap.add_argument("--record", default="", help="--parts: write the hashes and times to this JSON file")
    ap.add_argument("--check", default="", help="--parts: compare with the hashes of this JSON file")
    ap.add_argument("--dump", default="", help="--parts: write each part's HTML into this folder")
    ap.add_argument("--profile", default="", help='--parts: the top functions of 5 renders of one part ("alchemist-3p seat 1")')
    ap.add_argument("--sort", default="tottime", help="--profile: pstats order (tottime, cumulative)")
    args = ap.parse_args()
    if args.parts and not os.environ.get("DATABASE_URL"):
        fresh = ROOT / "var" / "bench-parts.sqlite3"
        for f in (fresh, Path(f"{fresh}-wal"), Path(f"{fresh}-shm")):
            f.unlink(missing_ok=True)
        os.environ["SQLITE_PATH"] = str(fresh)
    import django

    if args.parts:
        # One fixed "now" (before the apps import it): clock deadlines, hence the HTML, are the
        # same every run.
        import datetime

        from django.utils import timezone

        frozen = datetime.datetime(2026, 3, 2, 9, 0, tzinfo=datetime.UTC)
        timezone.now = lambda: frozen

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    call_command("migrate", verbosity=0)
    if args.parts:
        return parts(args)
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
