#!/usr/bin/env python
"""The chaos soak: moves, chat and finishing matches on the production set-up
(bench/stack.py, ``split``: gunicorn for HTTP, uvicorn for the sockets, a Celery worker that
also sends mail to a local SMTP sink) while Redis, the worker, the socket server and
PostgreSQL are restarted in random order, one about every ``--fault-every`` seconds.
Bounded: it stops by itself after ``--duration`` seconds plus a settling phase.

    .venv/bin/python bench/chaos.py --duration 1200 --fault-every 120     # the 20-minute soak
    .venv/bin/python bench/chaos.py --duration 200 --fault-every 40       # a short run

At the end it checks, from the database and the sink:
- every match's log is exactly the moves the clients were told were applied (none lost, none
  doubled; a move whose answer was lost in a fault is counted once the match's version shows it);
- every finished match is rated once (ratings.RatedMatch, one RatingChange per player) and
  summarised once (gamestats.GameSummary);
- every "your turn" e-mail that fell due reached the SMTP sink exactly once, none went for a turn
  played before it fell due (X-Spieltisch-Key names the deliveries a turn mail carries);
- chat lines are never stored twice;
- after each fault, how long until the follow-up lag (ops.backlog.followup_backlog) was under
  5 s again (goal: within 60 s).

Prints one JSON object (and writes it to var/bench/chaos-<time>.json). The tables play through
HTTP (the API) and hold the sockets of their first seats (reconnecting after a socket-server
restart); the second seat plays through the API only, as an app would, never at the table, so its
turns left open at the end fall due and are mailed (the first seat's are seen at the table).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
# bench/ last: its notifications.py must not shadow the notifications app.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
sys.path.append(str(ROOT / "bench"))

from load import Mirror  # noqa: E402
from stack import Stack  # noqa: E402

from tests.addresses import free_port  # noqa: E402

FAULTS = ("redis", "worker", "socket-server", "postgres")
LAG_GOAL_S, RECOVERY_GOAL_S = 5.0, 60.0


# --- the tables ---------------------------------------------------------------------------------
AWAY_SEAT = 1  # plays through the API only: never present on the match, so its open turns are mailed


class Table:
    """Plays seeded matches one after another; knows which moves the server confirmed."""

    def __init__(self, chaos: "Chaos", n: int):
        self.chaos, self.n = chaos, n
        self.rng = random.Random(n)
        self.m: Mirror | None = None
        self.sockets: dict[int, aiohttp.ClientWebSocketResponse] = {}

    async def run(self, session, until: float) -> None:
        while time.monotonic() < until:
            if self.m is None or self.m.over:
                await self.close_sockets()
                if not self.chaos.matches:
                    return
                data = self.chaos.matches.pop()
                self.m = Mirror(data)
                self.chaos.applied[self.m.id] = []
                self.chaos.started.append(self.m.id)
            await self.ensure_sockets(session)
            if self.rng.random() < self.chaos.chat_share:
                await self.chat(session)
            else:
                await self.move(session)
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.chaos.think_s)
        await self.close_sockets()

    async def move(self, session) -> None:
        m, stats = self.m, self.chaos.stats
        seat = m.engine.to_move(m.state)[0]
        action = self.rng.choice(m.engine.legal_actions(m.state, seat))
        headers = {"Authorization": f"Token {m.seats[seat]['token']}"}
        url = f"{self.chaos.base}/api/matches/{m.id}/actions/"
        status = None
        try:
            async with session.post(url, json={"action": action, "version": m.version}, headers=headers) as r:
                await r.read()
                status = r.status
        except (aiohttp.ClientError, asyncio.TimeoutError, ConnectionError) as exc:
            stats["move_errors"][type(exc).__name__] += 1
        if status == 200:
            self.applied(seat, action)
            stats["moves_ok"] += 1
            return
        if status is not None:
            stats["move_errors"][str(status)] += 1
        # The answer was an error or never came: did the move commit anyway? Ask the version.
        version = await self.server_version(session, headers)
        if version == m.version + 1:
            self.applied(seat, action)
            stats["moves_found_after_error"] += 1
        elif version is not None and version != m.version:
            stats["version_mismatch"] += 1  # never expected: somebody else moved this match
            m.over = True

    def applied(self, seat: int, action: dict) -> None:
        m = self.m
        m.state = m.engine.apply(m.state, seat, action).state
        m.version += 1
        self.chaos.applied[m.id].append(action)
        m.over = m.engine.outcome(m.state) is not None
        if m.over:
            self.chaos.stats["matches_finished"] += 1

    async def server_version(self, session, headers) -> int | None:
        for _ in range(60):  # the service may be down for a few seconds
            try:
                async with session.get(f"{self.chaos.base}/api/matches/{self.m.id}/", headers=headers) as r:
                    if r.status == 200:
                        return (await r.json())["version"]
            except (aiohttp.ClientError, asyncio.TimeoutError, ConnectionError):
                pass
            await asyncio.sleep(1)
        return None

    async def chat(self, session) -> None:
        m, stats = self.m, self.chaos.stats
        seat = self.rng.randrange(len(m.seats))
        text = f"chaos {m.id}.{stats['chat_sent']}"
        stats["chat_sent"] += 1
        csrf = secrets.token_hex(16)  # 32 characters: a valid CSRF secret for cookie and field
        cookies = f"sessionid={m.seats[seat]['session']}; csrftoken={csrf}"
        try:
            async with session.post(f"{self.chaos.base}/matches/{m.id}/chat/", data={"text": text,
                                    "csrfmiddlewaretoken": csrf}, allow_redirects=False,
                                    headers={"Cookie": cookies, "Referer": self.chaos.base + "/"}) as r:
                await r.read()
                stats["chat_answers"][str(r.status)] += 1
        except (aiohttp.ClientError, asyncio.TimeoutError, ConnectionError) as exc:
            stats["chat_answers"][type(exc).__name__] += 1

    async def ensure_sockets(self, session) -> None:
        if time.monotonic() < getattr(self, "retry_sockets_at", 0):
            return  # the socket server is away: try again in a second, not on every action
        for seat, info in enumerate(self.m.seats):
            if seat == AWAY_SEAT:
                continue
            ws = self.sockets.get(seat)
            if ws is not None and not ws.closed:
                continue
            if ws is not None:
                self.chaos.stats["socket_reconnects"] += 1
            try:
                ws = await session.ws_connect(f"{self.chaos.ws_base}/ws/matches/{self.m.id}/",
                                              headers={"Origin": self.chaos.base,
                                                       "Cookie": f"sessionid={info['session']}"},
                                              timeout=aiohttp.ClientWSTimeout(ws_close=5))
            except (aiohttp.ClientError, asyncio.TimeoutError, ConnectionError) as exc:
                self.chaos.stats["socket_connect_errors"][getattr(exc, "status", None) or type(exc).__name__] += 1
                self.sockets.pop(seat, None)
                self.retry_sockets_at = time.monotonic() + 1
                continue
            self.sockets[seat] = ws
            asyncio.create_task(self.drain(ws))

    async def hand_over(self, session) -> None:
        """At the end: the match in play is left with the away seat to move (its turn falls due)."""
        for _ in range(4):
            if self.m is None or self.m.over or self.m.engine.to_move(self.m.state)[0] == AWAY_SEAT:
                return
            await self.move(session)

    def away_turn_open(self) -> bool:
        return bool(self.m and not self.m.over and self.m.engine.to_move(self.m.state)[0] == AWAY_SEAT)

    async def drain(self, ws) -> None:
        async for msg in ws:
            if msg.type == aiohttp.WSMsgType.TEXT and '"match.update"' in msg.data:
                self.chaos.stats["frames"] += 1

    async def close_sockets(self) -> None:
        for ws in self.sockets.values():
            await ws.close()
        self.sockets = {}


# --- the run --------------------------------------------------------------------------------------
class Chaos:
    def __init__(self, args):
        self.args = args
        self.think_s, self.chat_share = args.think, args.chat_share
        self.matches: list[dict] = []
        self.applied: dict[int, list[dict]] = {}
        self.started: list[int] = []
        self.stats = {"moves_ok": 0, "moves_found_after_error": 0, "version_mismatch": 0,
                      "move_errors": Counter(), "chat_sent": 0, "chat_answers": Counter(), "frames": 0,
                      "socket_reconnects": 0, "socket_connect_errors": Counter(), "matches_finished": 0}
        self.faults: list[dict] = []
        self.lag_samples: list[tuple[float, float | None, int | None]] = []  # (t, lag_s, pending)
        self.t0 = 0.0

    # The follow-up lag, sampled from the database through the site's own function.
    def sample_lag(self, stop: threading.Event) -> None:
        from django.db import close_old_connections

        from ops.backlog import followup_backlog

        while not stop.wait(0.5):
            try:
                close_old_connections()
                b = followup_backlog()
                self.lag_samples.append((time.monotonic() - self.t0, b.lag_s, b.pending))
            except Exception:  # PostgreSQL down: no sample
                from django.db import connection

                connection.close()
                self.lag_samples.append((time.monotonic() - self.t0, None, None))

    def fault(self, stack: Stack, kind: str) -> None:
        t = time.monotonic() - self.t0
        if kind == "redis":
            stack.stop_redis()
            time.sleep(self.args.down)
            stack.start_redis()
        elif kind == "worker":
            stack.kill_worker()  # SIGKILL: tasks in flight are handed out again (acks late)
            time.sleep(self.args.down)
            stack.start_worker()
        elif kind == "socket-server":
            stack.restart_ws_server()
        elif kind == "postgres":
            stack.restart_postgres(down_seconds=self.args.down)
        self.faults.append({"kind": kind, "at_s": round(t, 1), "back_s": round(time.monotonic() - self.t0, 1)})

    def fault_loop(self, stack: Stack, stop: threading.Event, until: float) -> None:
        rng = random.Random(self.args.seed)
        order: list[str] = []
        while True:
            jitter = getattr(self.args, "jitter", 0.25)
            wait = self.args.fault_every * rng.uniform(1 - jitter, 1 + jitter)
            # (never past the end of the load: a --fault-every longer than the run, a run without
            # faults, had this thread wait on and the run never end)
            if stop.wait(min(wait, max(0.0, until - time.monotonic()))) or time.monotonic() + 5 > until:
                return
            if not order:  # every kind once per round, in random order
                order = list(FAULTS)
                rng.shuffle(order)
            try:
                self.fault(stack, order.pop())
            except Exception as exc:
                self.faults.append({"kind": "error", "detail": repr(exc)})

    async def play(self, until: float) -> None:
        timeout = aiohttp.ClientTimeout(total=20)
        async with aiohttp.ClientSession(timeout=timeout, connector=aiohttp.TCPConnector(limit=0)) as session:
            tables = [Table(self, n) for n in range(self.args.tables)]
            await asyncio.gather(*(t.run(session, until) for t in tables))
            await asyncio.gather(*(t.hand_over(session) for t in tables))
            self.away_turns_open = sum(t.away_turn_open() for t in tables)

    def timeline(self, step: float = 10.0) -> list[list]:
        """[t, highest lag, most pending] per ``step`` seconds (None: the database was down)."""
        buckets: dict[int, list] = {}
        for t, lag, pending in self.lag_samples:
            b = buckets.setdefault(int(t // step), [int(t // step) * step, None, None])
            if lag is not None:
                b[1] = round(max(b[1] or 0.0, lag), 1)
                b[2] = max(b[2] or 0, pending)
        return [buckets[k] for k in sorted(buckets)]

    def recoveries(self) -> list[dict]:
        out = []
        for f in self.faults:
            if "back_s" not in f:
                continue
            after = [(t, lag) for t, lag, _ in self.lag_samples if t >= f["back_s"]]
            ok = next((t for t, lag in after if lag is not None and lag < LAG_GOAL_S), None)
            window = [lag for t, lag in after if lag is not None and t <= f["back_s"] + RECOVERY_GOAL_S]
            out.append({**f, "lag_under_5s_after_s": None if ok is None else round(ok - f["back_s"], 1),
                        "max_lag_in_60s_s": round(max(window), 1) if window else None})
        return out


def verify(chaos: Chaos, sink_keys: list[str]) -> dict:
    from django.db.models import Count

    from gamestats.models import GameSummary
    from matches.models import ChatMessage, LogEntry, Match, Seat
    from notifications.models import Delivery
    from ratings.models import RatedMatch, RatingChange

    ids = list(chaos.applied)
    lost = doubled = differ = 0
    for mid in ids:
        client = chaos.applied[mid]
        entries = list(LogEntry.objects.filter(match_id=mid, kind=LogEntry.Kind.ACTION).order_by("seq", "id")
                       .values_list("seq", "action"))
        seqs = [s for s, _ in entries]
        doubled += len(seqs) - len(set(seqs)) + max(0, len(entries) - len(client))
        lost += max(0, len(client) - len(entries))
        differ += sum(1 for (_, a), b in zip(entries, client) if a != b)
    versions = dict(Match.objects.filter(pk__in=ids).values_list("id", "version"))
    version_off = sum(1 for mid in ids if versions.get(mid) != len(chaos.applied[mid]))

    finished = list(Match.objects.filter(pk__in=ids, status=Match.Status.FINISHED).values_list("id", "players"))
    finished_ids = [mid for mid, _ in finished]
    rated = set(RatedMatch.objects.filter(match_id__in=finished_ids).values_list("match_id", flat=True))
    changes = dict(RatingChange.objects.filter(match_id__in=finished_ids).values("match_id")
                   .annotate(n=Count("id")).values_list("match_id", "n"))
    summaries = set(GameSummary.objects.filter(match_id__in=finished_ids).values_list("match_id", flat=True))

    # Turn mails (notifications/attention.py): each delivery that fell due is in exactly one mail
    # (a mail's X-Spieltisch-Key names its deliveries: "turns.<id>.<id>…"); none for a turn the
    # seat had played (or seen) before the mail went.
    mails = list(Delivery.objects.filter(channel=Delivery.Channel.EMAIL, notification__kind="your_turn",
                                         notification__match_id__in=ids)
                 .values_list("pk", "status", "sent_at", "notification__match_id", "notification__key",
                              "notification__created_at"))
    seen = Counter(int(pk) for key in sink_keys if key.startswith("turns.") for pk in key.split(".")[1:])
    due = {pk for pk, status, *_ in mails if status in (Delivery.Status.SENT, Delivery.Status.PENDING)}
    seats = dict(Seat.objects.filter(match_id__in=ids).values_list("pk", "seat"))
    played_first = 0
    for pk, status, sent_at, match_id, key, created in mails:
        parts = key.split(":")
        if status != Delivery.Status.SENT or len(parts) != 4 or sent_at is None:
            continue
        seat = seats.get(int(parts[2]))
        played_first += LogEntry.objects.filter(match_id=match_id, seat=seat, kind=LogEntry.Kind.ACTION,
                                                at__gt=created, at__lt=sent_at).exists()
    chat = Counter(ChatMessage.objects.filter(match_id__in=ids, text__startswith="chaos ")
                   .values_list("text", flat=True))
    return {
        "matches_played": len(ids),
        "moves_in_log": sum(len(v) for v in chaos.applied.values()),
        "moves_lost": lost, "moves_doubled": doubled, "moves_differing": differ, "versions_off": version_off,
        "matches_finished": len(finished),
        "finished_not_rated": len([m for m in finished_ids if m not in rated]),
        "rating_changes_not_one_per_player": sum(1 for mid, players in finished if changes.get(mid, 0) != players),
        "finished_not_summarised": len([m for m in finished_ids if m not in summaries]),
        "turn_mails_expected": len(due),
        "away_turns_open": getattr(chaos, "away_turns_open", 0),
        "turn_mails_by_status": dict(Counter(m[1] for m in mails)),
        "turn_mails_missing": len([pk for pk in due if not seen.get(pk)]),
        "turn_mails_twice": sum(1 for pk in due if seen.get(pk, 0) > 1),
        "turn_mails_not_due_sent": sum(1 for pk, status, *_ in mails if status not in
                                       (Delivery.Status.SENT, Delivery.Status.PENDING) and seen.get(pk)),
        "turn_mails_for_a_turn_played_first": played_first,
        "sink_mails_total": len(sink_keys),
        "chat_stored": sum(chat.values()), "chat_stored_twice": sum(1 for n in chat.values() if n > 1),
    }


def soak(args, stack: Stack, keyfile: Path) -> dict:
    per_match = 45  # Alchemist, two players: about 44 moves
    n = args.matches or max(args.tables * 2, int(args.tables * args.duration / (args.think * per_match) * 1.3) + 1)
    # This process reads the stack's database as its servers do (the same secret key: a site on
    # real services refuses to start without one, config/secretkey.py).
    os.environ.update({"DATABASE_URL": stack.database_url, "REDIS_URL": stack.redis_url,
                       "DJANGO_SECRET_KEY": stack.env["DJANGO_SECRET_KEY"],
                       "DJANGO_SETTINGS_MODULE": "config.settings", "SPIELTISCH_EXTRA_GAMES": "tests.support.minigame"})
    import seed  # noqa: E402  (bench/seed.py: sets Django up against the stack's database)

    chaos = Chaos(args)
    chaos.matches = seed.seed_matches(n, 2, "alchemist", "x")["matches"][::-1]
    chaos.base, chaos.ws_base = stack.base_url, stack.ws_base
    stop = threading.Event()
    chaos.t0 = time.monotonic()
    until = chaos.t0 + args.duration
    threads = [threading.Thread(target=chaos.sample_lag, args=(stop,), daemon=True),
               threading.Thread(target=chaos.fault_loop, args=(stack, stop, until), daemon=True)]
    for t in threads:
        t.start()
    asyncio.run(chaos.play(until))
    threads[1].join()  # a fault in progress finishes (every service is up again)
    load_s = time.monotonic() - chaos.t0

    # Settle: follow-ups and mails catch up (beat runs the follow-up sweep every 30 s; its mail
    # flush re-queues a mail whose task was lost only after 5 minutes, so it is called at the end
    # of the wait if needed).
    from django.db import close_old_connections

    from ops.backlog import followup_backlog, mail_backlog

    settle_t0 = time.monotonic()
    flushed, before_flush = 0, None
    while time.monotonic() < settle_t0 + args.settle:
        close_old_connections()
        try:
            before_flush = {"followups": followup_backlog().pending, "mails": mail_backlog()}
            if before_flush == {"followups": 0, "mails": 0}:
                break
        except Exception:
            pass
        time.sleep(1)
    else:
        if before_flush and before_flush["mails"]:
            from datetime import timedelta

            from django.utils import timezone

            from notifications.services import flush

            flushed = flush(now=timezone.now() + timedelta(minutes=10))  # as beat's flush would later
            deadline = time.monotonic() + 20
            while mail_backlog() and time.monotonic() < deadline:
                time.sleep(0.5)
    # The turns left open fall due: the players are gone (their presence ran out), so the sweep as
    # it runs two hours on mails each once (the played ones were skipped); then those sends settle.
    from datetime import timedelta as _td

    from django.utils import timezone as _tz

    from notifications.services import flush as _flush

    close_old_connections()
    due_later = _flush(now=_tz.now() + _td(hours=2))
    deadline = time.monotonic() + 30
    while mail_backlog() and time.monotonic() < deadline:
        time.sleep(0.5)
    stop.set()
    threads[0].join()
    time.sleep(2)  # the sink's last lines
    close_old_connections()
    backlog = followup_backlog()
    result = {
        "command": " ".join(sys.argv),
        "load_s": round(load_s, 1), "tables": args.tables, "think_s": args.think,
        "visibility_timeout_s": args.visibility,
        "faults": chaos.recoveries(),
        "lag_timeline": chaos.timeline(),  # [t s, highest lag s, most pending] per 10 s
        "actions": {k: (dict(v) if isinstance(v, Counter) else v) for k, v in chaos.stats.items()},
        "moves_per_s": round((chaos.stats["moves_ok"] + chaos.stats["moves_found_after_error"]) / load_s, 1),
        "settle": {"s": round(time.monotonic() - settle_t0, 1), "pending_before_flush": before_flush,
                   "pending_followups_after": backlog.pending, "lag_after_s": round(backlog.lag_s, 1),
                   "mails_requeued_by_flush": flushed, "turn_notices_due_after_2h": due_later, "worker_restarts_by_supervisor": stack.worker_restarts},
        "checks": verify(chaos, keyfile.read_text().split()),
    }
    c = result["checks"]
    result["goals_met"] = {
        "no_move_lost_or_doubled": c["moves_lost"] == c["moves_doubled"] == c["moves_differing"] == c["versions_off"] == 0,
        "finished_rated_and_summarised_once": c["finished_not_rated"] == c["rating_changes_not_one_per_player"]
        == c["finished_not_summarised"] == 0,
        "due_notices_exactly_once_none_for_played": c["turn_mails_missing"] == c["turn_mails_twice"]
        == c["turn_mails_not_due_sent"] == c["turn_mails_for_a_turn_played_first"] == 0,
        "chat_never_twice": c["chat_stored_twice"] == 0,
        "lag_under_5s_within_60s_after_each_fault": all(
            f["lag_under_5s_after_s"] is not None and f["lag_under_5s_after_s"] <= RECOVERY_GOAL_S
            for f in result["faults"]),
    }
    path = ROOT / "var" / "bench" / f"chaos-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps(result, indent=1))
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duration", type=float, default=1200, help="seconds of load")
    ap.add_argument("--fault-every", type=float, default=120, help="mean seconds between faults")
    ap.add_argument("--down", type=float, default=3, help="seconds a stopped service stays down")
    ap.add_argument("--tables", type=int, default=6, help="matches played at once")
    ap.add_argument("--think", type=float, default=0.4, help="mean seconds between a table's actions")
    ap.add_argument("--chat-share", type=float, default=0.1)
    ap.add_argument("--matches", type=int, default=0, help="matches seeded (default: enough for the run)")
    ap.add_argument("--settle", type=float, default=90, help="seconds to wait for follow-ups and mail at the end")
    ap.add_argument("--jitter", type=float, default=0.25, help="faults come after fault-every × (1 ± this)")
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--port-base", type=int, default=0,
                    help="use five ports from here (HTTP, sockets, PostgreSQL, Redis, SMTP sink); default: free ones")
    ap.add_argument("--visibility", type=int, default=30,
                    help="Celery visibility timeout (s): a killed worker's task runs again after it")
    args = ap.parse_args()
    print(json.dumps(run(args), indent=1))


def run(args) -> dict:
    base = getattr(args, "port_base", 0)
    sink_port, keyfile = (base + 4 if base else free_port()), ROOT / "var" / "bench" / f"chaos-mail-{os.getpid()}.keys"
    keyfile.parent.mkdir(parents=True, exist_ok=True)
    keyfile.write_text("")
    sink = subprocess.Popen([sys.executable, str(ROOT / "bench" / "smtp_sink.py"), str(sink_port), str(keyfile)],
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        sink.stdout.readline()  # "ready"
        stack = Stack(workers=2, server="split", ws_workers=1, http_port=base or free_port(2),
                      pg_port=base + 2 if base else free_port(), redis_port=base + 3 if base else free_port(), extra_env={
                          "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(sink_port),
                          # A task whose worker was killed is handed out again after this long.
                          "CELERY_VISIBILITY_TIMEOUT": str(args.visibility),
                          "RATE_LIMITS": "chat-user=100000,match-post=100000"})
        stack.worker_queues = "celery,notifications"
        stack.with_beat = True  # the sweeps that redo missed follow-ups run on beat, as deployed
        with stack:
            return soak(args, stack, keyfile)
    finally:
        sink.terminate()
        sink.wait(10)
        keyfile.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
