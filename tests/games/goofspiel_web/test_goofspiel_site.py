"""Goofspiel on the site through the API: three people bid at once, a match plays to the end;
before the reveal nobody else learns a bid on any channel (match view, legal actions, log and
its text, the game page)."""
import re

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_a_three_player_match_plays_to_the_end_with_sealed_bids(make_user, client):
    people = {}
    for name in ("ada", "ben", "cleo"):
        user = make_user(name)
        api = APIClient()
        api.force_authenticate(user)
        people[name] = (user, api)
    ada = people["ada"][1]
    r = ada.post("/api/invitations/", {"game": "goofspiel", "players": 3, "options": {"cards": 5, "ties": "carry"},
                                       "move_days": 2}, format="json")
    assert r.status_code == 201, r.content
    inv = r.json()
    for name in ("ben", "cleo"):
        assert people[name][1].post(f"/api/invitations/{inv['id']}/join/", {}, format="json").status_code == 200
    match_id = ada.get(f"/api/invitations/{inv['id']}/").json()["match"]
    seat_of = {s["user"]["username"]: s["seat"] for s in ada.get(f"/api/matches/{match_id}/").json()["seats"]}
    by_seat = {seat: people[name] for name, seat in seat_of.items()}
    rounds = 0
    while True:
        m = ada.get(f"/api/matches/{match_id}/").json()
        if m["status"] == "finished":
            break
        assert sorted(m["to_move"]) == [0, 1, 2], "a new round asks every seat at once"
        rounds += 1
        for order, seat in enumerate((2, 0, 1)):
            user, api = by_seat[seat]
            version = api.get(f"/api/matches/{match_id}/").json()["version"]
            legal = api.get(f"/api/matches/{match_id}/legal-actions/").json()
            card = legal[-1]["card"] if seat != 1 else legal[0]["card"]
            r = api.post(f"/api/matches/{match_id}/actions/", {"action": {"type": "bid", "card": card},
                                                               "version": version}, format="json")
            assert r.status_code == 200, r.content
            if order == 0:
                # The first bid lies on the table: the others see that, not the card.
                secret = str(card)
                for other in (0, 1):
                    _, oapi = by_seat[other]
                    seen = oapi.get(f"/api/matches/{match_id}/").json()
                    assert seen["view"]["my_bid"] is None and seen["view"]["bid_placed"][2] is True
                    assert sorted(seen["to_move"]) == [0, 1]
                    last = oapi.get(f"/api/matches/{match_id}/log/").json()[-1]
                    assert last["seat"] == 2 and last["action"] == {"type": "bid"}
                    assert all(secret not in line for line in last["text"]), last["text"]
                    client.force_login(by_seat[other][0])
                    page = client.get(f"/matches/{match_id}/").content.decode()
                    assert 'data-my-bid' not in page and 'data-placed="1"' in page
                    assert len(re.findall(r'data-action="bid"', page)) == len(
                        oapi.get(f"/api/matches/{match_id}/legal-actions/").json())
                mine = api.get(f"/api/matches/{match_id}/").json()["view"]["my_bid"]
                assert mine == card and api.get(f"/api/matches/{match_id}/legal-actions/").json() == []
                r = api.post(f"/api/matches/{match_id}/undo/", {"version": version + 1}, format="json")
                assert r.status_code in (400, 409), "a sealed bid is never taken back"
    assert rounds == 5
    assert m["status"] == "finished" and {p["seat"] for p in m["outcome"]["placements"]} == {0, 1, 2}
    log = ada.get(f"/api/matches/{match_id}/log/").json()
    assert len(log) == 15 and all(e["action"]["type"] == "bid" and "card" in e["action"] for e in log)
    client.force_login(people["ada"][0])
    page = client.get(f"/matches/{match_id}/").content.decode()
    assert 'data-finished="1"' in page
    assert client.get("/games/goofspiel/rules/").status_code == 200


def test_rules_guided_match_and_statistics_come_from_the_package(make_user, client):
    from gamestats.summaries import summarize_match
    from games.goofspiel import PLUGIN
    from matches import services
    from matches.models import Match

    page = client.get("/games/goofspiel/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="turn"' in page and "face down" in page
    learner = make_user("lena")
    client.force_login(learner)
    r = client.post("/learn/goofspiel/")
    assert r.status_code == 302
    match = Match.objects.get(game="goofspiel")
    assert [s.bot for s in match.seats.order_by("seat")].count("heuristic") == 1
    page = client.get(r.url).content.decode()
    assert "Bid: choose a card for the prize" in page  # the guide's hint beside the board
    # Play it out (the bot's seat by its own bot) and summarise it as the follow-up does.
    me = match.seats.get(user=learner).seat
    while match.status == "active":
        for seat in list(match.to_move):
            if seat == me:
                services.submit_action(match.pk, learner, PLUGIN.engine.legal_actions(match.state, me)[0], match.version)
            else:
                services.play_bots(match.pk)
            match.refresh_from_db()
    assert summarize_match(match.pk)
    page = client.get("/stats/goofspiel/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Rounds ending in a tie" in page and "Average winning bid per prize value" in page
