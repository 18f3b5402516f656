"""Der Orden's order controls on the table: shown with JavaScript beside the reaction
prompt, marked with the order the seat holds, and a click PUTs the seat's orders with that one
replaced (the others kept) to the orders API, with the CSRF token. The board is rendered by the
plugin's template; the page, its static files and the API are served by Playwright's router, so
the test needs no server (the API itself is the platform's, tested there)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "games" / "orden"))

from orden_scenario import Scenario  # noqa: E402
from test_orden_board import render  # noqa: E402
from test_orden_reactions import actor, objector  # noqa: E402

STATIC = {"/static/site.css": ROOT / "frontend/static/frontend/site.css",
          "/static/orden.css": ROOT / "games/orden/static/orden/orden.css",
          "/static/orders.js": ROOT / "games/orden/static/orden/orders.js"}


def page_html(board: str) -> str:
    return ("<!doctype html><html lang=en><head><meta name=viewport content='width=device-width'>"
            "<link rel=stylesheet href='/static/site.css'><link rel=stylesheet href='/static/orden.css'>"
            "<script src='/static/orders.js' defer></script></head><body><main>"
            f"<div class='game-table' data-match='7'>{board}</div></main></body></html>")


def _serve(board, held, puts):
    """Playwright's router: the page, its static files and the orders API (GET: ``held``; PUT:
    recorded in ``puts``, and held from then on)."""

    def route(r):
        url = r.request.url.split("table.test", 1)[1]
        if url == "/match":
            return r.fulfill(status=200, content_type="text/html", body=page_html(board))
        if url in STATIC:
            ctype = "text/css" if url.endswith(".css") else "text/javascript"
            return r.fulfill(status=200, content_type=ctype, body=STATIC[url].read_text())
        if url == "/api/matches/7/orders/":
            if r.request.method == "PUT":
                puts.append((json.loads(r.request.post_data), r.request.headers.get("x-csrftoken")))
                held[:] = json.loads(r.request.post_data)["orders"]
                return r.fulfill(status=200, content_type="application/json", body=r.request.post_data)
            return r.fulfill(status=200, content_type="application/json", body=json.dumps({"orders": held}))
        return r.fulfill(status=404, body="")
    return route


def test_a_click_sets_the_reactions_order_beside_the_others(browser):
    sc = Scenario([actor(), objector()])
    sc.do(0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1})
    board, _ = render(sc.state, 1, "en")
    held = [{"kind": "payment", "policy": "auto"}, {"kind": "reactions", "policy": "never"}]
    puts = []
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.route("http://table.test/**", _serve(board, held, puts))
    page.goto("http://table.test/match")
    box = page.locator(".ord-orders[data-kind=reactions]")
    box.wait_for(state="visible")
    never = box.locator("button", has_text="never react")
    page.wait_for_function("document.querySelector('.ord-order[aria-pressed=true]') !== null")
    assert never.get_attribute("aria-pressed") == "true"  # the order held now
    box.locator("button", has_text="prevent ascents from RANK VII").click()
    page.wait_for_function("document.querySelector('.ord-orders-status').textContent === 'Saved.'")
    assert puts == [({"orders": [{"kind": "payment", "policy": "auto"},
                                 {"kind": "reactions", "policy": "prevent_ascents", "min_rank": "VII"}]}, "tok")]
    assert never.get_attribute("aria-pressed") == "false"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.close()


def test_automatic_payment_is_a_switch_at_the_payment(browser):
    """At a payment the seat turns automatic payment on and off with one switch (it was a lone
    button that could only set it): ticked, the order is added beside the others; unticked, removed."""
    sc = Scenario([actor(), objector()], version=20)  # version 20's Einspruch is paid for with 2x T
    sc.do(0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1})
    sc.do(1, {"type": "react", "card": sc._find(1, "Einspruch"), "ability": 0})
    board, _ = render(sc.state, 1, "de")
    assert "ord-paying" in board
    held = [{"kind": "reactions", "policy": "never"}]
    puts = []
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.route("http://table.test/**", _serve(board, held, puts))
    page.goto("http://table.test/match")
    switch = page.locator(".ord-orders[data-kind=payment] input[type=checkbox][role=switch]")
    switch.wait_for(state="visible")
    assert not switch.is_checked() and "automatisch" in page.locator(".ord-switch").inner_text()
    switch.check()
    page.wait_for_function("document.querySelector('.ord-orders-status').textContent === 'Gespeichert.'")
    assert puts[-1][0] == {"orders": [{"kind": "reactions", "policy": "never"}, {"kind": "payment", "policy": "auto"}]}
    page.evaluate("document.querySelector('.ord-orders-status').textContent = ''")
    switch.uncheck()
    page.wait_for_function("document.querySelector('.ord-orders-status').textContent === 'Gespeichert.'")
    assert puts[-1][0] == {"orders": [{"kind": "reactions", "policy": "never"}]} and not switch.is_checked()
    page.close()
