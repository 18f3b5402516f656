"""Replays rebuild every live state; spectators (live, replay, export) never see hidden
information; the game page recaps what the others did since my last move."""
import json
import re

import pytest
from django.db import transaction
from django.test import Client

from games import registry
from games.rng import Rng
from matches import services
from matches.models import LogEntry, Match
from replays import history
from tests.platform.helpers import start_minigame
from tests.ratings.play import mover, play_to_end, plays_only, start

pytestmark = pytest.mark.django_db
MINI = registry.get("kartenduell")


def _client(user=None):
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _played_with_undo(alice, bob):
    """A kartenduell match with draws (hidden cards) and one undone move, recording the live
    state after every log entry."""
    match = start_minigame(alice, bob)
    live = {0: match.state}
    rng, undone = Rng(5), False
    while True:
        user, seat = mover(match)
        if user is None:
            break
        legal = MINI.engine.legal_actions(match.state, seat)
        action = rng.choice(legal)
        services.submit_action(match.pk, user, action, match.version)
        match.refresh_from_db()
        live[match.version] = match.state
        if not undone and action["type"] == "play":
            services.undo(match.pk, user, match.version)
            match.refresh_from_db()
            live[match.version] = match.state
            undone = True
    assert undone and match.status == Match.Status.FINISHED
    return match, live


def test_replay_rebuilds_every_live_state_and_the_pages_show_them(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match, live = _played_with_undo(alice, bob)
    steps = history.steps(match)
    assert all(not e.undone and e.kind != LogEntry.Kind.UNDO for e in steps)
    for entry in steps:
        assert services.replay(match, upto=entry.seq) == live[entry.seq]
    c = _client(alice)
    for entry in steps[::3]:
        for seat in range(2):
            r = c.get(f"/matches/{match.pk}/replay/", {"at": entry.seq, "seat": seat})
            assert r.status_code == 200
            assert r.context["view"] == MINI.engine.view(live[entry.seq], seat)
    start_page = c.get(f"/matches/{match.pk}/replay/", {"at": 0, "seat": "public"})
    assert start_page.context["view"] == MINI.engine.view(live[0], None) and start_page.context["step"] == 0


def test_after_the_end_any_seat_is_revealed_at_any_step(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match, live = _played_with_undo(alice, bob)
    first = history.steps(match)[0].seq
    for seat in range(2):
        r = _client().get(f"/matches/{match.pk}/replay/", {"at": first, "seat": seat})
        assert r.context["seat"] == seat and r.context["view"]["hand"] == live[first]["hands"][seat]
        assert all(line["texts"] for line in r.context["log"])  # private draws are readable now


def test_an_active_match_replay_shows_spectators_only_the_public_view(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    for _ in range(3):  # draws: hidden cards in hands and hidden log events
        user, seat = mover(match)
        services.submit_action(match.pk, user, {"type": "draw"}, match.version)
        match.refresh_from_db()
    spectator, alice_c = _client(), _client(alice)
    alice_seat = match.seats.get(user=alice).seat
    for entry in history.steps(match):
        for asked in ("0", "1", "public", None):
            params = {"at": entry.seq, **({"seat": asked} if asked else {})}
            r = spectator.get(f"/matches/{match.pk}/replay/", params)
            assert r.context["seat"] is None and r.context["view"]["hand"] is None
            assert r.context["view"]["hands"] is None
            assert all(not re.search(r"You draw|Du ziehst", t) for line in r.context["log"] for t in line["texts"])
            r = alice_c.get(f"/matches/{match.pk}/replay/", params)
            assert r.context["seat"] in (alice_seat, None)  # never bob's seat while it runs
    export = spectator.get(f"/matches/{match.pk}/export.json").json()
    assert export["match"]["outcome"] is None and export["viewer_seat"] is None
    assert all("to" not in ev for e in export["log"] for ev in e["events"])
    assert "seed" not in json.dumps(export["match"])
    api = spectator.get(f"/api/matches/{match.pk}/export/").json()
    strip = lambda log: [{k: v for k, v in e.items() if k != "at"} for e in log]  # noqa: E731
    assert strip(api["log"]) == strip(export["log"])


def _without_tokens(html: str) -> str:
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", html)


def _board(html: str) -> str:
    section = re.search(r'<section class="board card" id="board">.*?</section>', html, re.S).group(0)
    # the game page carries the board's styles in <head> and marks the last move; the replay not
    section = re.sub(r'<link rel="stylesheet"[^>]*>', "", section).replace(" is-last", "")
    return re.sub(r"\s+", " ", section)


@pytest.mark.parametrize("game", ["kartenduell", "alchemist"])
def test_spectators_live_pages_do_not_depend_on_hidden_information(make_user, game):
    """Redraw each seat's secrets (and the unseen deck/bag): a spectator's game page and
    its live part stay byte for byte the same, and the active match's replay board equals it."""
    alice, bob = make_user("alice"), make_user("bob")
    match = start(game, [alice, bob])
    plugin = registry.get(game)
    rng = Rng(3)
    for _ in range(6):
        user, seat = mover(match)
        services.submit_action(match.pk, user, rng.choice(plugin.engine.legal_actions(match.state, seat)),
                               match.version)
        match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    spectator = _client()
    urls = [f"/matches/{match.pk}/", f"/matches/{match.pk}/live/"]
    original = [_without_tokens(spectator.get(u).content.decode()) for u in urls]
    board = _board(original[0])
    assert _board(spectator.get(f"/matches/{match.pk}/replay/").content.decode()) == board
    state = match.state
    for seat in (0, 1, None):
        resampled = plugin.resample_hidden(state, seat, Rng(11 + (seat or 7)))
        assert resampled != state
        Match.objects.filter(pk=match.pk).update(state=resampled)
        assert [_without_tokens(spectator.get(u).content.decode()) for u in urls] == original
    Match.objects.filter(pk=match.pk).update(state=state)


def test_private_match_replays_and_exports_are_for_its_players(make_user):
    from lobby import services as lobby

    alice, bob, eve = make_user("alice"), make_user("bob"), make_user("eve")
    inv = lobby.create_invitation(alice, game="kartenduell", players=2, private=True, invitees=["bob"])
    match = lobby.join(inv.pk, bob).match
    for url in (f"/matches/{match.pk}/replay/", f"/matches/{match.pk}/export.json", f"/api/matches/{match.pk}/export/"):
        assert _client(eve).get(url).status_code == 404
        assert _client().get(url).status_code == 404
        assert _client(bob).get(url).status_code == 200


def test_finished_export_holds_the_whole_log(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match, _ = _played_with_undo(alice, bob)
    data = _client().get(f"/matches/{match.pk}/export.json").json()
    assert [e["seq"] for e in data["log"]] == list(range(1, match.version + 1))
    assert data["match"]["outcome"] == match.outcome
    drawn = [ev for e in data["log"] for ev in e["events"] if ev["type"] == "drew_card"]
    assert all("card" in ev for ev in drawn)


def test_recap_since_my_last_move(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    first, _ = mover(match)
    second = bob if first == alice else alice
    services.submit_action(match.pk, first, {"type": "draw"}, match.version)
    match.refresh_from_db()
    services.submit_action(match.pk, second, {"type": "draw"}, match.version)
    match.refresh_from_db()
    page = _client(first).get(f"/matches/{match.pk}/").content.decode()
    recap = re.search(r'<section class="card recap" id="recap">.*?</section>', page, re.S).group(0)
    assert f"{second.username} draws a card." in recap
    assert "You draw" not in recap and first.username not in recap
    assert 'id="recap"' not in _client().get(f"/matches/{match.pk}/").content.decode()  # spectators: none
    live = _client(first).get(f"/matches/{match.pk}/live/").content.decode()
    assert 'id="recap"' in live


def test_finished_game_page_links_to_its_replay(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = play_to_end(start_minigame(alice, bob), plays_only)
    page = _client(alice).get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/replay/"' in page and f"/matches/{match.pk}/export.json" in page


def test_alchemist_replay_pages_render_with_the_board(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    with transaction.atomic():
        match = start("alchemist", [alice, bob])
    match = play_to_end(match)
    c = _client()
    steps = history.steps(match)
    for entry in steps[:: max(1, len(steps) // 5)] + [steps[-1]]:
        r = c.get(f"/matches/{match.pk}/replay/", {"at": entry.seq, "seat": 1})
        assert r.status_code == 200 and r.context["view"] == registry.get("alchemist").engine.view(
            services.replay(match, upto=entry.seq), 1)
