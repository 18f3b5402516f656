"""The backup and restore of deploy/README.md, drilled: a match is played and committed, the
database is dumped with ``pg_dump -Fc`` and restored with ``pg_restore`` into a fresh
database; there (a separate process, as a restored site would run) the match's log replays to
its stored state and the API serves it. Real-services pass only (PostgreSQL)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from games import registry
from matches import services
from tests.platform.helpers import seat_of, start_minigame, to_move_user
from tests.support import worker

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))

pytestmark = [
    pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                       reason="runs in the real-services pass only (PostgreSQL)"),
    pytest.mark.skipif(not (PG_BIN / "pg_dump").exists(), reason="needs pg_dump/pg_restore 15"),
]

CHECK = """
import json
from django.test import Client
from rest_framework.authtoken.models import Token
from matches.models import Match
from matches.services import replay
m = Match.objects.get(pk={mid})
token = Token.objects.get_or_create(user=m.seats.order_by('seat').first().user)[0].key
r = Client().get('/api/matches/{mid}/', HTTP_AUTHORIZATION='Token ' + token)
print(json.dumps({{"replays": replay(m) == m.state, "version": m.version, "log": m.log.count(),
                  "status": r.status_code, "api_version": r.json().get("version")}}))
"""


def test_dump_and_restore_into_a_fresh_database(transactional_db, make_user, tmp_path):
    match = start_minigame(make_user("backup_a"), make_user("backup_b"))
    engine = registry.get("kartenduell").engine
    for _ in range(6):
        user = to_move_user(match)
        if user is None:
            break
        seat = seat_of(match, user)
        services.submit_action(match.pk, user, engine.legal_actions(match.state, seat)[0], match.version)
        match.refresh_from_db()
    assert match.version >= 4

    source = worker.test_database_url()
    restored_name = f"{connection.settings_dict['NAME']}_restored"
    restored = source.rsplit("/", 1)[0] + f"/{restored_name}"
    admin = source.rsplit("/", 1)[0] + "/postgres"
    dump = tmp_path / "spieltisch.dump"
    connection.close()  # (pg_dump takes its own snapshot; nothing of ours is open)
    subprocess.run([str(PG_BIN / "pg_dump"), "-Fc", "-d", source, "-f", str(dump)], check=True, timeout=120)
    psql = [str(PG_BIN / "psql"), "-d", admin, "-v", "ON_ERROR_STOP=1", "-qc"]
    subprocess.run([*psql, f'DROP DATABASE IF EXISTS "{restored_name}" WITH (FORCE)'], check=True)
    subprocess.run([*psql, f'CREATE DATABASE "{restored_name}"'], check=True)
    try:
        subprocess.run([str(PG_BIN / "pg_restore"), "--no-owner", "--exit-on-error", "-d", restored, str(dump)],
                       check=True, timeout=120)
        env = {**os.environ, "DATABASE_URL": restored, "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}",
               "SPIELTISCH_EXTRA_GAMES": "tests.support.minigame", "DJANGO_ALLOWED_HOSTS": "testserver"}
        out = subprocess.run([sys.executable, "manage.py", "shell", "--no-imports", "-c", CHECK.format(mid=match.pk)],
                             cwd=ROOT, env=env, check=True, capture_output=True, text=True, timeout=120)
        seen = json.loads(out.stdout.strip().splitlines()[-1])
    finally:
        subprocess.run([*psql, f'DROP DATABASE IF EXISTS "{restored_name}" WITH (FORCE)'], check=False)
    assert seen == {"replays": True, "version": match.version, "log": match.version, "status": 200,
                    "api_version": match.version}, seen
