"""Screenshots of the game table: every game (its ``Plugin.showcase``), a few moves in, at a desktop
(1280x800) and a phone (390x844) viewport, as the player to move sees them, with a long
player name and a long unbroken chat line (the page must not grow sideways).

    .venv/bin/python tools/screenshots.py [--out docs/screenshots] [--lang en] [--theme dark]

Runs on its own: a fresh SQLite database in a temporary folder, daphne on a free port, Debian's
chromium via Playwright (CHROMIUM=/usr/bin/chromium). Writes <game>-<width>x<height>.png, in the
dark theme (the system's prefers-color-scheme, emulated) <game>-<width>x<height>-dark.png."""
from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT), str(ROOT / "bench")]
VIEWPORTS = ((1280, 800), (390, 844))
LONG_NAME = "mira_ux_" + "x" * 40
LONG_CHAT = "Gut gespielt! " + "Abrakadabra" * 36  # one unbroken word of ~400 characters


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def seed(lang: str) -> list[tuple[str, int, str]]:
    """Two matches; returns (game, match id, session key of the player to move)."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from match_page import make_match
    from matches import chat

    call_command("migrate", verbosity=0)
    from games import registry

    out = []
    for game, plugin in registry.plugins().items():  # each game's showcase position
        show = plugin.showcase()
        players, moves, until = show["players"], show["moves"], plugin.showcase_ready
        names = [f"{LONG_NAME}_{game[:3]}", *(f"{n}_{game[:3]}" for n in ("Ada", "Merlin", "Zoe", "Ole", "Ivo"))]
        match, mover = make_match(game, players, moves, "", names=names, until=until)
        chat.post(match.pk, mover, LONG_CHAT)
        mover.profile.language = lang
        mover.profile.save()
        session = SessionStore()
        session[SESSION_KEY] = str(mover.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = mover.get_session_auth_hash()
        session.create()
        out.append((game, match.pk, session.session_key))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--lang", default="en")
    ap.add_argument("--full", action="store_true", help="whole pages, not only the first screen")
    ap.add_argument("--theme", choices=("light", "dark"), default="light",
                    help="the system colour scheme the browser reports (the site follows it)")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="screens-")
    os.environ.update(SQLITE_PATH=f"{tmp}/db.sqlite3", DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="0")
    for key in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(key, None)
    matches = seed(args.lang)
    port = free_port()
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}"}
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "config.asgi:application"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(base + "/lobby/", timeout=1)
                break
            except Exception:
                time.sleep(0.2)
        from playwright.sync_api import sync_playwright

        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                         args=["--headless", "--no-sandbox", "--disable-background-networking"])
            for game, match_id, session in matches:
                for width, height in VIEWPORTS:
                    ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme=args.theme)
                    ctx.add_cookies([{"name": "sessionid", "value": session, "url": base}])
                    page = ctx.new_page()
                    page.goto(f"{base}/matches/{match_id}/")
                    page.wait_for_load_state("networkidle")
                    wide = page.evaluate("document.documentElement.scrollWidth")
                    suffix = "" if args.theme == "light" else f"-{args.theme}"
                    path = out / f"{game}-{width}x{height}{suffix}.png"
                    page.screenshot(path=str(path), full_page=args.full)
                    print(f"{path}: page width {wide} px (viewport {width})")
                    ctx.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
