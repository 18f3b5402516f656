"""A new user's way through the site, in two real browsers, and the same through the API."""
import json

import pytest

from tests.browser.pages import PASSWORD, follow_into_match, play_until_finished, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def click_first_move(page):
    page.locator("#board form button").first.click()


def test_sign_up_invite_join_and_play_to_the_end(live_site, browser):
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    a, b = ctx_a.new_page(), ctx_b.new_page()
    sign_up(a, live_site, "ada")
    sign_up(b, live_site, "bert", lang="de")
    assert "Offene Einladungen" in b.content()

    a.goto(live_site + "/invitations/new/")
    a.click("a[data-game=kartenduell]")
    a.select_option("select[name=players]", "2")
    a.check("input[name=opt_short]")
    a.click("main form button[type=submit]")
    a.wait_for_selector("[data-invitation]")

    b.goto(live_site + "/lobby/?game=kartenduell")
    b.click("#invitations a.button")
    b.click("#join-form button[type=submit]")
    b.wait_for_selector("#live")
    match_url = b.url
    follow_into_match(a, match_url)
    a.wait_for_function("window.__liveSocketOpen === true")
    b.wait_for_function("window.__liveSocketOpen === true")

    b.fill("#chat input[name=text]", "Viel Glück!")
    b.click("#chat button[type=submit]")
    a.wait_for_selector("#chat-messages li:has-text('Viel Glück!')")

    play_until_finished([a, b], click_first_move)
    a.reload()
    b.reload()
    assert a.locator("#placements li").count() == 2
    assert b.locator("#placements li").count() == 2
    assert "Endergebnis" in b.content() and "Final result" in a.content()
    a.goto(live_site + "/my-games/")
    assert a.locator("#my-games tr[data-match]").count() == 1


def test_the_same_through_the_api(live_site, api_request, browser):
    ctx = browser.new_context()
    page = ctx.new_page()
    sign_up(page, live_site, "carla")
    sign_up(browser.new_context().new_page(), live_site, "dora")

    def client(name):
        anon = api_request.new_context(base_url=live_site)
        token = anon.post("/api/auth/token/", data={"username": name, "password": PASSWORD}).json()["token"]
        return api_request.new_context(base_url=live_site, extra_http_headers={"Authorization": f"Token {token}"})

    clients = {"carla": client("carla"), "dora": client("dora")}
    r = clients["carla"].post("/api/invitations/", data={"game": "kartenduell", "players": 2})
    assert r.status == 201, r.text()
    inv = r.json()
    assert clients["dora"].post(f"/api/invitations/{inv['id']}/join/", data={"choices": {}}).ok
    match_id = clients["dora"].get(f"/api/invitations/{inv['id']}/").json()["match"]
    for _ in range(60):
        m = clients["carla"].get(f"/api/matches/{match_id}/").json()
        if m["status"] == "finished":
            break
        mover = next(s["user"]["username"] for s in m["seats"] if s["seat"] == m["to_move"][0])
        legal = clients[mover].get(f"/api/matches/{match_id}/legal-actions/").json()
        r = clients[mover].post(f"/api/matches/{match_id}/actions/", data={"action": legal[0], "version": m["version"]})
        assert r.status == 200, r.text()
    assert m["status"] == "finished" and len(m["outcome"]["placements"]) == 2
    # The finished match is on the player's page too.
    page.goto(f"{live_site}/matches/{match_id}/")
    assert page.locator("#placements li").count() == 2
    assert json.loads(clients["carla"].get(f"/api/matches/{match_id}/log/").text())
