"""The chaos soak in short (bench/chaos.py; the long run and its figures: docs/performance.md,
"Chaos soak"): about 35 s of moves, chat and finishing matches on a private stack while Redis,
the worker (SIGKILL), the socket server and PostgreSQL are restarted once each, in random
order. Then, from the database and the SMTP sink: no move lost or doubled, no chat line
twice, every finished match rated and summarised once, every due "your turn" notice mailed
once and none for a turn already played, and
the follow-up lag under 5 s within 60 s of each fault. Real-services pass only."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

from tests.drills.test_stack_drills import PG_BIN  # noqa: E402  (bench/ on the path)

pytestmark = [
    pytest.mark.skipif(not (PG_BIN / "initdb").exists() or not shutil.which("redis-server"),
                       reason="needs PostgreSQL 15 binaries and redis-server (the real-services stack)"),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="runs in the real-services pass only"),
]


def test_short_chaos_soak():
    # Its own process: the soak reads its stack's database with Django, not the test database.
    # --settle 60: a fault late in the 32 s gets the 60 s the goal allows (a follow-up lost with a
    # killed socket server is redone by beat's sweep, every 30 s, once it lags 10 s); the wait
    # ends as soon as nothing is pending.
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "chaos.py"), "--duration", "32", "--fault-every", "2",
                          "--jitter", "0", "--down", "1", "--tables", "3", "--think", "0.3", "--matches", "12",
                          "--settle", "60", "--visibility", "10"], cwd=ROOT, capture_output=True, text=True,
                         timeout=240, env={k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")})
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout)
    # Every kind of fault at least once (a quick machine fits a second round in the time).
    kinds = {f["kind"] for f in result["faults"]}
    assert kinds == {"redis", "worker", "socket-server", "postgres"}, result["faults"]
    assert result["checks"]["moves_in_log"] > 50 and result["checks"]["matches_finished"] >= 1, result["checks"]
    goals = result["goals_met"]
    for goal in ("no_move_lost_or_doubled", "chat_never_twice"):
        assert goals[goal], (goal, result)
    # Turn mails: never twice. One can go missing only in the window the mailer documents
    # (notifications/smtp.py: the claim committed, then the worker SIGKILLed before the final
    # "."), so at most the sends in flight of each killed worker (2 processes).
    checks = result["checks"]
    killed = sum(1 for f in result["faults"] if f["kind"] == "worker")
    assert checks["turn_mails_twice"] == 0, result
    assert checks["turn_mails_missing"] <= 2 * killed, result
    assert checks["turn_mails_for_a_turn_played_first"] == checks["turn_mails_not_due_sent"] == 0, result
    # The away seats' turns left open at the end fell due (the seats at the table saw theirs).
    assert checks["turn_mails_expected"] == checks["away_turns_open"] > 0, result
    followups = {goal: goals[goal] for goal in ("finished_rated_and_summarised_once",
                                                "lag_under_5s_within_60s_after_each_fault")}
    assert all(followups.values()), (f"follow-up goals missed: {followups}", result)
