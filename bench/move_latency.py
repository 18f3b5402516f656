"""Click to the other player's screen: how long after a player clicks a move does the waiting
player's page show it (goal: p50 ≤ 100 ms, p95 ≤ 200 ms on a quiet machine), and the mover's own?

Two Playwright pages (Debian's chromium) on a served site, each signed in as one player of a
fresh two-player match of the game; a new match when one ends. The player to move clicks a move
on the board; the time is taken in each page by the same clock (``Date.now()``, one machine): at
the click (a capturing listener in the mover's page) and when each page's ``#live`` carries the
new version (a MutationObserver: the new DOM is in), and "painted" at the first task after the
next animation frame (its style, layout and paint done). Moves alternate, so each page waits
in turn.

    .venv/bin/python bench/move_latency.py --stack --moves 50 --games alchemist,goofspiel,orden
    make run PORT=9302 &          # or any served site with the demo users:
    .venv/bin/python bench/move_latency.py --base http://127.0.0.1:9302 --moves 50

Prints, per game, the figures (p50, p95, max) for the other page and the mover's own, and the
machine's load (``uptime``) before and after. ``--no-socket``: the pages have no websocket to
send moves on (the HTTP fallback; the waiting page then learns of moves by its 20-s poll, so
this measures the mover's own page only). ``--http-path``: the path before moves went over the
socket (an htmx POST, a frame, the other page's GET of its part), for an A/B in one window."""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import time

CHROMIUM = "/usr/bin/chromium"
# --http-path: the pages as they were before moves went over the socket: the hello asks for no
# live part (plain frames, the other page fetches its part), and a move cannot be sent on the
# socket (table.js then posts it with htmx).
HTTP_PATH = """(() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (text) {
    const data = JSON.parse(text);
    if (data.type === 'act') throw new Error('moves over HTTP in this run');
    if (data.type === 'hello') delete data.live;
    return send.call(this, JSON.stringify(data));
  };
})();"""
WATCH = """() => {
  window.__seen = {};
  window.__painted = {};  // the frame after the change: style, layout and paint done
  const note = () => { const live = document.getElementById('live');
    if (live && !(live.dataset.version in window.__seen)) {
      const v = live.dataset.version;
      window.__seen[v] = Date.now();
      requestAnimationFrame(() => setTimeout(() => { window.__painted[v] = Date.now(); }, 0));
    } };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, attributes: true,
                                                     attributeFilter: ['data-version']});
  document.addEventListener('click', () => { window.__clicked = Date.now(); }, true);
  window.__part = {};  // when the frame with the rendered live part arrived (live.js)
  document.addEventListener('live:part', (ev) => { window.__part[ev.detail.version] = Date.now(); }, true);
  note();
}"""


def token(request, base, user, password):
    r = request.post(base + "/api/auth/token/", data={"username": user, "password": password})
    assert r.ok, r.text()
    return r.json()["token"]


def new_match(request, base, users, password, game) -> int:
    a, b = (token(request, base, u, password) for u in users)
    r = request.post(base + "/api/invitations/", headers={"Authorization": f"Token {a}"},
                     data=json.dumps({"game": game, "players": 2}), )
    assert r.ok, r.text()
    inv = r.json()["id"]
    r = request.post(f"{base}/api/invitations/{inv}/join/", headers={"Authorization": f"Token {b}"})
    assert r.ok, r.text()
    return request.get(f"{base}/api/invitations/{inv}/", headers={"Authorization": f"Token {a}"}).json()["match"]


def log_in(ctx, base, user, password):
    page = ctx.new_page()
    page.goto(base + "/accounts/login/")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    return page


def click_a_move(page, game: str, rng: random.Random) -> None:
    if game == "goofspiel":
        bids = page.locator("form[data-action=bid] button:enabled")
        bids.nth(rng.randrange(bids.count())).click()
    elif game == "alchemist":
        click_alchemist(page)
    else:  # any offered move (Der Orden: one form per move, its action as JSON)
        moves = page.locator("#board form:has(input[name=action]) button[type=submit]:enabled")
        moves.nth(rng.randrange(moves.count())).click()


def click_alchemist(page) -> None:
    """A pass (take or draw) when the board offers one, else the first design (two players'
    first round allows only designs worth 5 or more)."""
    passes = page.locator("form[data-action=pass] button:enabled")  # unavailable moves are shown disabled
    if passes.count():
        passes.last.click()
        return
    copies = page.locator("form[data-action=copy] button[data-tribute]:enabled")
    if copies.count():
        copies.first.click()
        return
    design = page.locator("details.alc-design").first
    design.locator("summary").click()
    form = design.locator("form[data-action=design]")
    form.locator("input[name=recipe]").first.check()
    form.locator("button[type=submit]").click()


def play(pw, browser, args, game: str, rng: random.Random) -> tuple[list[int], list[int], list[int]]:
    """(click → other page shows it, click → own page, click → other page has the frame,
    click → other page painted, click → own page painted) in ms, over ``args.moves`` moves of
    ``game``. (Waiting for a page polls every 50 ms: the times are the pages' own, and polling
    on every animation frame had cost the pages' CPU.)"""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    users = args.users.split(",")
    api = pw.request.new_context(extra_http_headers={"Content-Type": "application/json"})
    other_ms, own_ms, frame_ms, other_paint, own_paint = [], [], [], [], []
    while len(other_ms) < args.moves:
        match = new_match(api, args.base, users, args.password, game)
        pages = []
        for user in users:
            ctx = browser.new_context(viewport={"width": 1280, "height": 800})
            if args.no_socket:
                ctx.add_init_script("window.WebSocket = function () { throw new Error('off'); };")
            if args.http_path:
                ctx.add_init_script(HTTP_PATH)
            page = log_in(ctx, args.base, user, args.password)
            page.goto(f"{args.base}/matches/{match}/")
            if not args.no_socket:
                page.wait_for_function("() => window.__liveSocketOpen === true")
            page.evaluate(WATCH)
            pages.append(page)
        while len(other_ms) < args.moves:
            movers = [p for p in pages if p.locator("#match-status[data-my-turn='1']").count()]
            if not movers:
                break  # the match is over
            mover = movers[0]
            other = pages[1 - pages.index(mover)]
            version = int(mover.locator("#live").get_attribute("data-version"))
            try:
                click_a_move(mover, game, rng)
            except PlaywrightTimeout as exc:  # noted with a screenshot; the run goes on with a new match
                shot = f"var/latency-{game}-{match}-v{version}.png"
                mover.screenshot(path=shot, full_page=True)
                print(f"{game}: match {match} version {version}: the move could not be clicked ({shot}): "
                      f"{str(exc).splitlines()[0]}", flush=True)
                break
            mover.wait_for_function(f"() => window.__seen['{version + 1}'] !== undefined", timeout=30_000, polling=50)
            clicked = mover.evaluate("() => window.__clicked")
            own_ms.append(mover.evaluate(f"() => window.__seen['{version + 1}']") - clicked)
            mover.wait_for_function(f"() => window.__painted['{version + 1}'] !== undefined", timeout=30_000, polling=50)
            own_paint.append(mover.evaluate(f"() => window.__painted['{version + 1}']") - clicked)
            if not args.no_socket:
                other.wait_for_function(f"() => window.__seen['{version + 1}'] !== undefined", timeout=30_000, polling=50)
                other_ms.append(other.evaluate(f"() => window.__seen['{version + 1}']") - clicked)
                other.wait_for_function(f"() => window.__painted['{version + 1}'] !== undefined", timeout=30_000,
                                        polling=50)
                other_paint.append(other.evaluate(f"() => window.__painted['{version + 1}']") - clicked)
                part = other.evaluate(f"() => window.__part['{version + 1}']")
                if part:
                    frame_ms.append(part - clicked)
            else:
                other_ms.append(0)
            time.sleep(0.3)  # a player does not click the instant the board arrives
        for page in pages:
            page.context.close()
    return other_ms, own_ms, frame_ms, other_paint, own_paint


def figures(ms: list[int]) -> str:
    ms = sorted(ms)
    p95 = statistics.quantiles(ms, n=20)[-1] if len(ms) > 1 else ms[0]
    return f"p50 {statistics.median(ms):.0f}, p95 {p95:.0f}, min {ms[0]}, max {ms[-1]}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="http://127.0.0.1:8000")
    ap.add_argument("--users", default="alice,bob")
    ap.add_argument("--password", default="spieltisch")
    ap.add_argument("--moves", type=int, default=50, help="per game")
    ap.add_argument("--games", default="alchemist,goofspiel,orden")
    ap.add_argument("--no-socket", action="store_true", help="pages without a websocket (the HTTP fallback)")
    ap.add_argument("--http-path", action="store_true",
                    help="the path before: moves posted with htmx, the other page fetching its part after the frame")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stack", action="store_true",
                    help="serve the site for the run as production does (bench/stack.py: uvicorn x2 for pages and "
                         "sockets, PostgreSQL, Redis, a Celery worker), with the demo users; --base is not used")
    args = ap.parse_args()
    if args.stack:
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from stack import Stack

        with Stack(server="uvicorn", workers=2, http_port=8830, pg_port=5441, redis_port=6391,
                   database="spieltisch_latency") as site:
            site.manage("seed_demo")
            site.manage("collectstatic", "--noinput", "-v", "0")
            args.base = site.base_url
            measure(args)
        return
    measure(args)


def measure(args) -> None:
    from playwright.sync_api import sync_playwright

    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print("uptime before:", uptime)
    rng = random.Random(args.seed)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM,
                                     args=["--headless", "--no-sandbox", "--disable-background-networking"])
        for game in args.games.split(","):
            other_ms, own_ms, frame_ms, other_paint, own_paint = play(pw, browser, args, game, rng)
            if not args.no_socket:
                print(f"{game}: {len(other_ms)} moves, click → other page shows it (ms): {figures(other_ms)}")
                if frame_ms:  # the rest is the page's swap
                    print(f"{game}: click → the other page has the frame with its part (ms): {figures(frame_ms)}")
                print(f"{game}: click → other page painted (ms): {figures(other_paint)}")
            print(f"{game}: {len(own_ms)} moves, click → own page shows it (ms): {figures(own_ms)}")
            print(f"{game}: click → own page painted (ms): {figures(own_paint)}")
            print("  other:", other_ms)
            print("  own:", own_ms)
        browser.close()
    print("uptime after:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
