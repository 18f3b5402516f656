"""`manage.py check --deploy` is clean with production settings (DEBUG off, HTTPS on, a long
random secret key): no security warning at all, and no error of any kind."""
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def check(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECURE": "1", "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
           "DJANGO_ALLOWED_HOSTS": "spieltisch.example.org", "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}"}
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_deploy_check_has_no_security_warnings():
    done = check("--tag", "security", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr


def test_deploy_check_has_no_errors_and_only_known_schema_notes():
    done = check("--fail-level", "ERROR")
    assert done.returncode == 0, done.stdout + done.stderr
    warnings = [line for line in (done.stdout + done.stderr).splitlines() if ": (" in line]
    # drf_spectacular's operationId collisions are documentation notes, not deployment issues.
    assert all("drf_spectacular.W001" in line for line in warnings), warnings


def test_the_embedded_default_key_is_refused_by_the_check():
    """Production without DJANGO_SECRET_KEY must be noticed: the default key is flagged."""
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECURE": "1", "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}"}
    env.pop("DJANGO_SECRET_KEY", None)
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--tag", "security"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert "security.W009" in done.stdout + done.stderr
