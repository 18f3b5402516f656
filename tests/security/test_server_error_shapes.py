"""The API's error shape on every server the README offers: daphne
(``make serve``), uvicorn (``make ws``) and gunicorn (``make web``), started here on free ports
over the test database, each sent every kind of malformed body. Every answer is a 4xx with the
JSON shape {"error", "detail"} (Twisted, under daphne, used to answer a malformed multipart body
with a bare 400 before Django saw it). Form fields that are not UTF-8 are refused with a clear
error instead of being stored with U+FFFD."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token

from matches.models import SeatNote
from tests.addresses import free_port
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]
SERVERS = {
    "daphne": ["-m", "daphne", "-b", "127.0.0.1", "-p", "{port}", "config.asgi:application"],
    "uvicorn": ["-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", "{port}",
                "--log-level", "warning"],
    "gunicorn": ["-m", "gunicorn", "config.wsgi:application", "-b", "127.0.0.1:{port}", "-w", "1",
                 "--log-level", "warning"],
}
MP = "multipart/form-data"
MALFORMED = [  # (content type, body)
    (MP, b"garbage, no parts at all"),
    (MP + "; boundary=XYZ", b"garbage, no parts at all"),
    (MP + "; boundary=", b"--\r\n\r\n--"),
    (MP + "; boundary=XYZ", b'--XYZ\r\nContent-Disposition: form-data; name="text"\r\n'),  # cut off
    (MP + "; boundary=XYZ", b'--XYZ\r\nContent-Disposition: form-data; name="text"\r\n\r\nplan \xff\xfe\r\n--XYZ--\r\n'),
    (MP + "; boundary=XYZ", b'--XYZ\r\nContent-Disposition: form-data; name="te\xffxt"\r\n\r\nx\r\n--XYZ--\r\n'),
    ("application/x-www-form-urlencoded", b"text=plan%20%FF%FE"),
    ("application/x-www-form-urlencoded", b"text=plan \xff"),
    ("application/json", b'{"text": "plan \xff"}'),
    ("application/json", b'{"text": "cut off'),
    ("application/json", b'{"text": "\\ud800"}'),
    ("application/json", b"[" * 5000),
    ("text/plain", b"text=plan"),
    ("application/octet-stream", b"\x00\x01\x02"),
]


def _database_env() -> dict:
    """The servers share the test database: SQLite's file, or PostgreSQL's test database."""
    if connection.vendor == "postgresql":
        from tests.support.worker import test_database_url

        return {"DATABASE_URL": test_database_url()}
    db = connection.settings_dict["NAME"]
    assert os.path.exists(db), "the servers share the test database through its file"
    return {"SQLITE_PATH": db}


def _start(name: str, db: dict):
    port = free_port()
    args = [a.format(port=port) for a in SERVERS[name]]
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env = {**env, "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}", **db,
           "RATE_LIMITS": "match-post=100000,chat-user=100000,invitation-user=100000"}
    proc = subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError(f"{name} did not start")


def _send(port: int, method: str, path: str, ctype: str, body: bytes, token: str) -> tuple[int, str, bytes]:
    """One raw HTTP/1.1 request (a client library would fix the bodies this sends)."""
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
            f"Content-Type: {ctype}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode("latin-1")
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(head + body)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    header, _, content = data.partition(b"\r\n\r\n")
    lines = header.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    ctype_out = next((line.split(":", 1)[1].strip() for line in lines[1:] if line.lower().startswith("content-type:")), "")
    if any(line.lower() == "transfer-encoding: chunked" for line in lines[1:]):
        content = _unchunk(content)
    return status, ctype_out, content


def _unchunk(data: bytes) -> bytes:
    out = b""
    while data:
        size, _, rest = data.partition(b"\r\n")
        n = int(size.split(b";")[0], 16)
        if n == 0:
            break
        out, data = out + rest[:n], rest[n + 2:]
    return out


def test_every_server_answers_every_malformed_body_in_the_api_shape(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    token = Token.objects.create(user=alice).key
    db = _database_env()
    targets = [("POST", "/api/invitations/"), ("PUT", f"/api/matches/{match.pk}/notes/"),
               ("POST", f"/api/matches/{match.pk}/chat/")]
    with ThreadPoolExecutor(3) as pool:
        started = dict(zip(SERVERS, pool.map(lambda n: _start(n, db), SERVERS)))
    wrong = []
    try:
        for name, (_proc, port) in started.items():
            for method, path in targets:
                for ctype, body in MALFORMED:
                    status, ctype_out, content = _send(port, method, path, ctype, body, token)
                    try:
                        shape = json.loads(content)
                    except ValueError:
                        shape = None
                    if not (400 <= status < 500 and "json" in ctype_out and isinstance(shape, dict)
                            and {"error", "detail"} <= set(shape) and shape["detail"]):
                        wrong.append(f"{name} {method} {path} [{ctype}] {body[:40]!r}: {status} {ctype_out!r} "
                                     f"{content[:80]!r}")
    finally:
        for proc, _port in started.values():
            proc.terminate()
        for proc, _port in started.values():
            proc.wait(15)
    assert not wrong, "\n".join(wrong)
    assert not SeatNote.objects.exists()  # nothing half-applied


def test_form_notes_that_are_not_utf8_are_refused_not_stored_damaged(make_user, client):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    client.force_login(alice)
    r = client.generic("POST", f"/matches/{match.pk}/notes/", b"text=plan%20%FF%FE",
                       content_type="application/x-www-form-urlencoded")
    assert r.status_code == 400 and "UTF-8" in r.content.decode()
    assert not SeatNote.objects.exists()
    r = client.generic("POST", f"/matches/{match.pk}/notes/",
                       b'--XYZ\r\nContent-Disposition: form-data; name="text"\r\n\r\nplan \xff\r\n--XYZ--\r\n',
                       content_type="multipart/form-data; boundary=XYZ")
    assert r.status_code == 400 and "UTF-8" in r.content.decode()
    assert not SeatNote.objects.exists()
    ok = client.post(f"/matches/{match.pk}/notes/", {"text": "plan \N{REPLACEMENT CHARACTER} ok"})
    assert ok.status_code < 400 and SeatNote.objects.get().text == "plan \N{REPLACEMENT CHARACTER} ok"
