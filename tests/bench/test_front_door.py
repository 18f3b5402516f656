"""bench/run.py is the bench's one front door: every command it names runs its tool, every tool
answers --help, and every bench command the docs give names a command that exists."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import run  # noqa: E402

from bench.orden import cli  # noqa: E402

pytestmark = pytest.mark.pure
PLATFORM = {"moves", "sustained", "idle", "lists", "all"}


def _help(*args):
    return subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), *args, "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_every_command_has_its_script_and_every_script_a_command():
    scripts = {path for path, _ in run.TOOLS.values()}
    assert all((ROOT / "bench" / s).is_file() for s in scripts)
    helpers = {"run.py", "stack.py", "seed.py", "load.py", "floor.py", "smtp_sink.py"}  # run.py's and the drills'
    tops = {p.name for p in (ROOT / "bench").glob("*.py")} - helpers
    assert tops <= scripts, tops - scripts
    for folder in ("days", "sim", "swiss"):
        assert {f"{folder}/{p.name}" for p in (ROOT / "bench" / folder).glob("*.py")} <= scripts


@pytest.mark.parametrize("command", sorted(run.TOOLS))
def test_every_command_answers_help(command):
    done = _help(command)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage" in done.stdout or "bench/run.py orden" in done.stdout


def test_a_command_run_through_the_front_door_leaves_its_output_in_a_file(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "pairing", "--smoke"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "BENCH_RESULTS": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    (written,) = tmp_path.glob("pairing-*.txt")
    assert "players" in done.stdout and written.read_text() == done.stdout
    assert f"written {written}" in done.stderr


def test_the_front_door_lists_every_command():
    done = _help()
    assert done.returncode == 0
    assert all(name in done.stdout for name in [*run.TOOLS, *PLATFORM])


@pytest.mark.parametrize("job", sorted(cli.JOBS))
def test_every_orden_job_answers_help(job):
    done = _help("orden", job)
    assert done.returncode == 0 and job in done.stdout, done.stderr[-2000:]


def test_the_docs_name_only_commands_that_exist():
    pages = [p for p in (*ROOT.glob("*.md"), *(ROOT / "docs").rglob("*.md"), *(ROOT / "bench").rglob("*.md"))
             if p.name != "CHANGELOG.md"]  # history may name tools as they were
    named = set()
    for page in pages:
        for cmd, job in re.findall(r"bench/run\.py ([a-z][a-z-]*)(?: ([a-z]+))?", page.read_text()):
            named.add((page.name, cmd, job))
            assert cmd in run.TOOLS or cmd in PLATFORM, (page.name, cmd)
            if cmd == "orden" and job:
                assert job in cli.JOBS, (page.name, job)
    assert named  # the docs do give commands
    for page in pages:  # the scripts the docs name by path exist
        for path in re.findall(r"(?<![\w/])bench/[\w/]+\.py", page.read_text()):
            assert (ROOT / path).is_file(), (page.name, path)
