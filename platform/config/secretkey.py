"""Where SECRET_KEY comes from when DJANGO_SECRET_KEY is not set. A site on real services
(DATABASE_URL) with DEBUG off is a production: it refuses to start rather than sign sessions,
password resets and tokens with a key that is written in this repository. Elsewhere:

- DEBUG on: a fixed development key (`check --deploy` flags its "django-insecure-" prefix);
- a test run (pytest imported): a random key, put into the environment so that the servers
  and workers the tests start sign with the same key;
- the embedded default (SQLite, `make run`): a random key made once and kept beside the
  database (mode 0600), so sessions survive a restart.
"""
from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

DEV_KEY = "django-insecure-dev-only-key-change-me-in-production-0123456789"
MISSING = ("DJANGO_SECRET_KEY is not set. A site on real services (DATABASE_URL) with DJANGO_DEBUG off "
           "must have its own secret key; make one with: python -c 'import secrets; print(secrets.token_urlsafe(64))' "
           "(or set DJANGO_DEBUG=1 for development).")


def secret_key(*, debug: bool, database_url: str, sqlite_path: str) -> str:
    key = os.environ.get("DJANGO_SECRET_KEY", "").strip()
    if key:
        return key
    if debug:
        return DEV_KEY
    if "pytest" in sys.modules:
        key = secrets.token_urlsafe(64)
        os.environ["DJANGO_SECRET_KEY"] = key
        return key
    if database_url:
        raise ImproperlyConfigured(MISSING)
    return _kept_key(Path(sqlite_path).parent / "secret_key")


def _kept_key(path: Path) -> str:
    try:
        key = path.read_text().strip()
        if len(key) >= 50:
            return key
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(64)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    return key
