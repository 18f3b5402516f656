"""`manage.py check --deploy` is clean with production settings (DEBUG off, HTTPS on, a long
random secret key): no warning or error of any kind (the OpenAPI schema's own checks included)."""
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def check(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECURE": "1", "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
           "DJANGO_ALLOWED_HOSTS": "spieltisch.example.org", "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}"}
    # The browser tests' conftest allows sync ORM calls inside Playwright's loop; a deployment never does.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_deploy_check_has_no_security_warnings():
    done = check("--tag", "security", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr


def test_deploy_check_is_clean_including_the_api_schema():
    done = check("--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    warnings = [line for line in (done.stdout + done.stderr).splitlines() if ": (" in line]
    assert warnings == [], warnings


def test_the_embedded_default_key_is_refused_by_the_check():
    """Production without DJANGO_SECRET_KEY must be noticed: the default key is flagged."""
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECURE": "1", "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}"}
    env.pop("DJANGO_SECRET_KEY", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--tag", "security"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert "security.W009" in done.stdout + done.stderr
