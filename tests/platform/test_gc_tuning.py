"""The collector's settings for server and worker processes (core/warmup.py, core/gcstats.py;
the steady tail, docs/performance.md). Each case runs in a fresh interpreter: thresholds and
callbacks are per process and must not leak into the test run."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import gc, json
from core.warmup import freeze_heap
freeze_heap()
for _ in range(50):  # cyclic garbage: young collections run and are recorded
    a = []; a.append(a); b = [[i] for i in range(2000)]; del a, b
gc.collect()
import sys
print(json.dumps({"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count(), "switch": sys.getswitchinterval()}))
"""


def run(env: dict) -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}", **env})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_threshold_comes_from_the_environment(tmp_path):
    assert run({"GC_THRESHOLD": "12345,17,33"})["threshold"] == [12345, 17, 33]


def test_switch_interval_comes_from_the_environment():
    assert run({"SWITCH_INTERVAL": "0.0005"})["switch"] == 0.0005
    assert run({"SWITCH_INTERVAL": ""})["switch"] == 0.005  # Python's default unless set


def test_frozen_heap_and_the_default_threshold():
    out = run({"GC_THRESHOLD": ""})
    assert out["frozen"] > 1000  # the start-up heap is out of the collector's sight
    bare = subprocess.run([sys.executable, "-c", "import gc; print(list(gc.get_threshold()))"], capture_output=True,
                          text=True, check=True).stdout
    assert out["threshold"] == json.loads(bare)  # unchanged unless GC_THRESHOLD says otherwise


def test_pauses_are_recorded_per_generation(tmp_path):
    run({"GC_STATS_DIR": str(tmp_path)})
    files = list(tmp_path.glob("gc-*.json"))
    assert len(files) == 1
    data = json.loads(files[0].read_text())
    assert data["generations"]["0"]["count"] > 0
    assert data["generations"]["2"]["count"] >= 1  # freeze_heap's own and the final gc.collect()
    assert {"total_ms", "max_ms", "over_5ms", "cpu_ms"} <= set(data["generations"]["0"])


def test_nothing_is_recorded_without_the_setting(tmp_path):
    run({"GC_STATS_DIR": ""})
    assert not list(tmp_path.glob("gc-*.json"))


LOADED = """
import json, sys
import config.{entry}
from games import registry
print(json.dumps({{"plugins_loaded": registry.plugins.cache_info().currsize,
                   "alchemist_imported": "games.alchemist.engine" in sys.modules}}))
"""


def test_server_processes_load_the_games_at_start_up():
    """The game plugins are imported when a server process starts, before it is frozen, not in the
    first move it serves (that move took 31 ms instead of 6; docs/performance.md, "Steady tail")."""
    for entry in ("asgi", "wsgi"):
        done = subprocess.run([sys.executable, "-c", LOADED.format(entry=entry)], cwd=ROOT, capture_output=True,
                              text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}",
                                   "DJANGO_SETTINGS_MODULE": "config.settings"})
        assert done.returncode == 0, done.stderr[-2000:]
        assert json.loads(done.stdout.strip().splitlines()[-1]) == {"plugins_loaded": 1, "alchemist_imported": True}


def test_socket_servers_collect_the_oldest_generation_rarely():
    """The ASGI application (daphne, uvicorn: the processes that hold the sockets) sets the
    socket servers' thresholds; GC_THRESHOLD still overrides them."""
    script = ("import gc, json, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); "
              "import config.asgi; print(json.dumps(gc.get_threshold()))")

    def threshold(env):
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                              env={**{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
                                   "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}", **env})
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    from core.warmup import SOCKET_SERVER_GC

    assert threshold({"GC_THRESHOLD": ""}) == list(SOCKET_SERVER_GC)
    assert SOCKET_SERVER_GC[2] >= 100 * 10  # the oldest generation, against Python's 10
    assert threshold({"GC_THRESHOLD": "700,10,10"}) == [700, 10, 10]
