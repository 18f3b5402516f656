"""The browser's side of a move: how long a game page takes from the live part's frame to the
painted table, and what the browser spends after a move while the pages sit still.

On a served stack (``bench/stack.py``, as ``bench/move_latency.py --stack`` runs it) two chromium
pages open a fresh two-player match, one per player. Then:

- swap: each page gets its own live part (``GET /matches/<id>/live/``) ``--swaps`` times as the
  match socket would bring it (a ``live:part`` event with the next version, ``table.js``'s own
  handler), and the time from the event to the end of the handler ("js") and to the first task
  after the next animation frame ("to paint") is taken in the page; medians, the first three
  swaps left out. The player to move's part carries the move forms (Alchemist's design options).
- after a move: one real move; chromium's CPU (all its processes, from ``/proc``) over the first
  2 s after it, the last move's highlight included, and with ``reduced motion`` for comparison.

    .venv/bin/python bench/run.py part-swap --games alchemist,orden,goofspiel
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import move_latency as ml  # noqa: E402

SWAP = r"""async ([html, n]) => {
  const out = [];
  for (let i = 0; i < n; i++) {
    const live = document.getElementById('live');
    const v = Number(live.dataset.version) + 1;
    const part = html.replace(/data-version="\d+"/, 'data-version="' + v + '"');
    await new Promise(r => setTimeout(r, 120));
    const t0 = performance.now();
    document.dispatchEvent(new CustomEvent('live:part', {detail: {type: 'live', version: v, html: part}}));
    const t1 = performance.now();
    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    out.push([t1 - t0, performance.now() - t0]);
  }
  return out;
}"""


def chromium_cpu() -> float:
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if b"chromium" not in open(f"/proc/{pid}/cmdline", "rb").read():
                continue
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def pages_of(pw, browser, base: str, game: str, motion: str):
    api = pw.request.new_context(extra_http_headers={"Content-Type": "application/json"})
    match = ml.new_match(api, base, ["alice", "bob"], "spieltisch", game)
    pages = []
    for user in ("alice", "bob"):
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion=motion)
        page = ml.log_in(ctx, base, user, "spieltisch")
        page.goto(f"{base}/matches/{match}/")
        page.wait_for_function("() => window.__liveSocketOpen === true")
        page.evaluate(ml.WATCH)
        pages.append(page)
    return match, pages


def swaps(pw, browser, base: str, game: str, n: int) -> None:
    match, pages = pages_of(pw, browser, base, game, "reduce")
    for page in pages:
        mine = page.locator("#match-status[data-my-turn='1']").count() > 0
        html = page.evaluate("async (u) => (await fetch(u)).text()", f"{base}/matches/{match}/live/")
        times = page.evaluate(SWAP, [html, n])[3:]
        print(f"{game}: {'player to move' if mine else 'waiting seat'}, part {len(html):,} B: "
              f"js {statistics.median(t[0] for t in times):.1f} ms, "
              f"to paint {statistics.median(t[1] for t in times):.1f} ms (median of {len(times)})", flush=True)
    for page in pages:
        page.context.close()


def after_a_move(pw, browser, base: str, game: str, motion: str) -> None:
    _match, pages = pages_of(pw, browser, base, game, motion)
    mover = next(p for p in pages if p.locator("#match-status[data-my-turn='1']").count())
    version = int(mover.locator("#live").get_attribute("data-version"))
    time.sleep(2)
    ml.click_a_move(mover, game, random.Random(1))
    for page in pages:
        page.wait_for_function(f"() => window.__seen['{version + 1}'] !== undefined", polling=50)
    before = chromium_cpu()
    time.sleep(2)
    print(f"{game}: chromium CPU over the 2 s after a move, two pages, motion {motion}: "
          f"{chromium_cpu() - before:.2f} s", flush=True)
    for page in pages:
        page.context.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="alchemist,orden,goofspiel")
    ap.add_argument("--swaps", type=int, default=18)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    from stack import Stack

    with Stack(server="uvicorn", workers=2, http_port=8830, pg_port=5441, redis_port=6391,
               database="spieltisch_latency") as site:
        site.manage("seed_demo")
        site.manage("collectstatic", "--noinput", "-v", "0")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=ml.CHROMIUM,
                                         args=["--headless", "--no-sandbox", "--disable-background-networking"])
            for game in args.games.split(","):
                swaps(pw, browser, site.base_url, game, args.swaps)
                for motion in ("no-preference", "reduce"):
                    after_a_move(pw, browser, site.base_url, game, motion)
            browser.close()


if __name__ == "__main__":
    main()
