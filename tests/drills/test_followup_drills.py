"""Follow-ups: nothing lost, against the real stack (bench/stack.py): Redis restarted
under a running worker (the worker goes on by itself, no supervisor, and the backlog drains), and
a match finished while the broker is down (rated and summarised once it is back). In-process
companions: tests/platform/test_nothing_lost.py."""
from __future__ import annotations

import asyncio
import time

import aiohttp

from tests.addresses import free_port
from tests.drills.test_stack_drills import ROOT, Player, Stack, django, pytestmark, seed  # noqa: F401

from stack import PY  # noqa: E402  (bench/ is on the path: test_stack_drills put it there)

pytestmark = pytestmark  # the same conditions: real-services pass, PostgreSQL binaries, redis-server


def behind(stack: Stack, but: int = 0) -> int:
    """Matches whose follow-ups have not caught up with their committed version: the clocks'
    record of the last version they followed (a receiver's own idempotency record, so this
    does not take matches/progress.py's word for it)."""
    return int(stack.psql("select count(*) from matches_match m left join clocks_timecontrol t on t.match_id = m.id "
                          f"where (t.version is null or t.version < m.version) and m.id <> {but}"))


def production_worker(stack: Stack):
    """The worker exactly as `make worker` runs it (its flags read from the Makefile), with two
    processes and no supervisor: nothing restarts it if it dies."""
    lines = (ROOT / "Makefile").read_text().splitlines()
    recipe = lines[lines.index("worker: install") + 1]
    args = recipe.split("/bin/celery ", 1)[1].split()
    return stack._spawn("worker", [PY, "-m", "celery", *args, "-c", "2", "-n", f"drill-{free_port()}@%h"])


def beat(stack: Stack):
    """Celery beat as `make beat` runs it: the follow-up sweep every 30 s, resume_bots every minute."""
    return stack._spawn("beat", [PY, "-m", "celery", "-A", "config", "beat", "-l", "info",
                                 "-s", f"/tmp/spieltisch-drill-beat-{stack.redis_port}"])


def wait(predicate, timeout: float, what: str) -> float:
    t0 = time.monotonic()
    while not predicate():
        assert time.monotonic() - t0 < timeout, what
        time.sleep(0.25)
    return time.monotonic() - t0


def test_redis_restarted_under_a_running_worker():
    with Stack(workers=1, worker=False, http_port=free_port(), pg_port=free_port(), redis_port=free_port()) as st:
        worker = production_worker(st)
        beat(st)
        players = [Player(st, m) for m in seed(st, matches=8, prefix="o")]
        wait(lambda: behind(st) == 0, 60, "the start's follow-ups were not done")
        log = (ROOT / "var" / "bench" / "worker.log")
        mark = log.stat().st_size

        async def moves(rounds: int) -> list[int]:
            async with aiohttp.ClientSession() as session:
                out = []
                for _ in range(rounds):
                    out += await asyncio.gather(*(p.play(session) for p in players))
                return out

        assert set(asyncio.run(moves(3))) == {200}
        # Four bots play Der Orden in one long play_bots task (about a thousand moves): a task
        # that is running when Redis goes away and acknowledged after it came back.
        bots = int(django(st, (
            "from django.db import transaction\n"
            "from matches.services import start_match\n"
            "with transaction.atomic():\n"
            "    m = start_match(game='orden', entrants=[{'user': None, 'bot': 'heuristic', 'choices': {}}] * 4,"
            " options={}, seed=78)\n"
            "print(m.pk)")))
        bot_version = f"select version from matches_match where id = {bots}"
        wait(lambda: int(st.psql(bot_version)) > 0, 60, "the bots did not start")
        # Redis goes away while follow-ups are queued and running, and comes back.
        st.stop_redis()
        time.sleep(3)
        st.start_redis()
        # Moves after the restart: their follow-ups go to the same worker, which must take them.
        assert set(asyncio.run(moves(5))) == {200}
        took = wait(lambda: behind(st, but=bots) == 0, 120, "follow-ups still behind")
        # The tasks running when the connection broke were cancelled (they could not be
        # acknowledged any more: CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS); the
        # sweep redoes a follow-up batch among them, beat's resume_bots queues the bots again.
        at = int(st.psql(bot_version))
        wait(lambda: st.psql(f"select status from matches_match where id = {bots}") == "finished"
             or int(st.psql(bot_version)) > at + 20, 180, "the bots stopped moving")
        text = log.read_text(errors="replace")[mark:]
        assert worker.poll() is None, f"the worker died: {text[-3000:]}"
        assert "Unrecoverable error" not in text, text[-3000:]
        # Nor a half-recovered one: before, the gossip's restart met the dropped connection.
        assert "AttributeError" not in text, text[-3000:]
        # ... and it still works, by itself: one more round is followed within seconds.
        assert set(asyncio.run(moves(1))) == {200}
        # (The bots' match is left out: while they play, its follow-ups are always a move behind.)
        wait(lambda: behind(st, but=bots) == 0, 60, "the worker stopped taking follow-ups")
        print(f"backlog drained {took:.1f}s after the restart")


def test_a_match_finished_while_the_broker_is_down_is_rated_and_summarised():
    with Stack(workers=1, http_port=free_port(), pg_port=free_port(), redis_port=free_port()) as st:
        player = Player(st, seed(st, matches=1, prefix="f")[0])
        match_id = player.m["id"]

        async def finish() -> int:
            async with aiohttp.ClientSession() as session:
                assert await player.play(session) == 200
                st.stop_redis()
                try:
                    async with session.post(f"{st.base_url}/api/matches/{match_id}/resign/", json={},
                                            headers={"Authorization": f"Token {player.m['seats'][0]['token']}"}) as r:
                        return r.status
                finally:
                    time.sleep(2)  # the follow-up meets the broker down (it runs inline then)
                    st.start_redis()

        assert asyncio.run(finish()) == 200
        assert st.psql(f"select status from matches_match where id = {match_id}") == "finished"
        rated = f"select count(*) from ratings_ratedmatch where match_id = {match_id}"
        summarised = f"select count(*) from gamestats_gamesummary where match_id = {match_id}"
        wait(lambda: st.psql(rated) == "1" and st.psql(summarised) == "1", 60,
             f"not rated ({st.psql(rated)}) or not summarised ({st.psql(summarised)})")
        notified = st.psql(f"select count(*) from notifications_notification where match_id = {match_id} "
                           "and kind = 'match_finished'")
        assert notified == "2"
        # The sweep finds nothing left to do, and doing it again changes nothing (exactly once).
        st.manage("shell", "--no-imports", "-c", "from matches.progress import sweep; sweep(lag_s=0)")
        assert st.psql(rated) == "1" and st.psql(summarised) == "1"
        assert behind(st) == 0
