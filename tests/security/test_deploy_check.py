"""`manage.py check --deploy` is clean with production settings (DEBUG off, HTTPS on, a long
random secret key): no warning or error of any kind (the OpenAPI schema's own checks included)."""
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

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


def bare_env(**extra) -> dict:
    """A production's environment that forgot DJANGO_SECRET_KEY (outside pytest's process)."""
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECURE": "1", "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}", **extra}
    env.pop("DJANGO_SECRET_KEY", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def test_production_without_a_secret_key_refuses_to_start():
    """Real services with DEBUG off and no DJANGO_SECRET_KEY: no start on a key everyone can read."""
    env = bare_env(DATABASE_URL="postgres://postgres@127.0.0.1:5432/spieltisch_unused")
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and "DJANGO_SECRET_KEY is not set" in done.stderr, done.stderr


@pytest.mark.parametrize("module", ["config.asgi", "config.wsgi"])
def test_the_servers_refuse_to_start_without_a_secret_key(module):
    """What uvicorn (`make ws`) and gunicorn (`make web`) load: the application itself refuses."""
    env = bare_env(DATABASE_URL="postgres://postgres@127.0.0.1:5432/spieltisch_unused",
                   DJANGO_SETTINGS_MODULE="config.settings")
    done = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and "DJANGO_SECRET_KEY is not set" in done.stderr, done.stderr


def test_the_embedded_default_makes_and_keeps_a_key_of_its_own(tmp_path):
    """SQLite without a key (`make run`): a random key, kept beside the database, never the
    fixed one (`check --deploy` would flag that: security.W009)."""
    env = bare_env(SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    keys = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", "import django; django.setup(); from django.conf import settings;"
                               " print(settings.SECRET_KEY)"], cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE":
                              "config.settings"}, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        keys.append(done.stdout.strip().splitlines()[-1])
    kept = tmp_path / "secret_key"
    assert keys[0] == keys[1] == kept.read_text().strip() and len(keys[0]) >= 50
    assert "insecure" not in keys[0] and oct(kept.stat().st_mode & 0o777) == "0o600"
