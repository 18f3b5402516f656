"""Click to the other player's screen: how long after a player clicks a move does the waiting
player's page show it (issue 25: goal p50 ≤ 300 ms on a quiet machine)?

Two Playwright pages (Debian's chromium) on a served site, each signed in as one player of a
fresh two-player Alchemist match. The player to move clicks a move on the board; the time is
taken in each page by the same clock (``Date.now()``, one machine): at the click (a capturing
listener in the mover's page) and when the waiting page's ``#live`` carries the new version
(a MutationObserver). Moves alternate, so each page waits in turn.

    make run PORT=9302 &          # or any served site with the demo users
    .venv/bin/python bench/move_latency.py --base http://127.0.0.1:9302 --moves 30

Prints the figures (p50, p90, max, per move) and the machine's load (``uptime``)."""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time

CHROMIUM = "/usr/bin/chromium"
WATCH = """() => {
  window.__seen = {};
  const note = () => { const live = document.getElementById('live');
    if (live && !(live.dataset.version in window.__seen)) window.__seen[live.dataset.version] = Date.now(); };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, attributes: true,
                                                     attributeFilter: ['data-version']});
  document.addEventListener('click', () => { window.__clicked = Date.now(); }, true);
  note();
}"""


def token(request, base, user, password):
    r = request.post(base + "/api/auth/token/", data={"username": user, "password": password})
    assert r.ok, r.text()
    return r.json()["token"]


def new_match(request, base, users, password) -> int:
    a, b = (token(request, base, u, password) for u in users)
    r = request.post(base + "/api/invitations/", headers={"Authorization": f"Token {a}"},
                     data=json.dumps({"game": "alchemist", "players": 2}), )
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


def click_a_move(page) -> None:
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="http://127.0.0.1:8000")
    ap.add_argument("--users", default="alice,bob")
    ap.add_argument("--password", default="spieltisch")
    ap.add_argument("--moves", type=int, default=30)
    args = ap.parse_args()
    users = args.users.split(",")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        api = pw.request.new_context(extra_http_headers={"Content-Type": "application/json"})
        match = new_match(api, args.base, users, args.password)
        browser = pw.chromium.launch(executable_path=CHROMIUM,
                                     args=["--headless", "--no-sandbox", "--disable-background-networking"])
        pages = []
        for user in users:
            ctx = browser.new_context(viewport={"width": 1280, "height": 800})
            page = log_in(ctx, args.base, user, args.password)
            page.goto(f"{args.base}/matches/{match}/")
            page.wait_for_function("() => window.__liveSocketOpen === true")
            page.evaluate(WATCH)
            pages.append(page)
        latencies = []
        for _ in range(args.moves):
            movers = [p for p in pages if p.locator("#match-status[data-my-turn='1']").count()]
            if not movers:
                break  # the match is over
            mover = movers[0]
            other = pages[1 - pages.index(mover)]
            version = int(mover.locator("#live").get_attribute("data-version"))
            click_a_move(mover)
            other.wait_for_function(f"() => window.__seen['{version + 1}'] !== undefined", timeout=30_000)
            clicked = mover.evaluate("() => window.__clicked")
            seen = other.evaluate(f"() => window.__seen['{version + 1}']")
            latencies.append(seen - clicked)
            mover.wait_for_function(f"() => Number(document.getElementById('live').dataset.version) >= {version + 1}")
            time.sleep(0.3)  # a player does not click the instant the board arrives
        browser.close()
    latencies.sort()
    q = statistics.quantiles(latencies, n=10) if len(latencies) > 1 else latencies
    print(f"match {match}: {len(latencies)} moves, click → other page shows it (ms): "
          f"p50 {statistics.median(latencies):.0f}, p90 {q[-1]:.0f}, min {latencies[0]}, max {latencies[-1]}")
    print("all:", latencies)
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
