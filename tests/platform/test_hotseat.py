"""The authors' hot-seat table (platform/authoring): 404 unless GAME_AUTHOR_TOOLS; with it on, one
person plays every seat of a real match through the site's services, and only their own."""
import re

import pytest
from django.test import override_settings

from authoring.models import HotSeat
from matches.models import LogEntry, Match

pytestmark = pytest.mark.django_db


@override_settings(GAME_AUTHOR_TOOLS=False)
def test_everything_is_404_with_the_flag_off(client, make_user):
    author = make_user("author")
    assert client.get("/author/hotseat/").status_code == 404  # signed out: no redirect to log in either
    client.force_login(author)
    assert client.get("/author/hotseat/").status_code == 404
    assert client.post("/author/hotseat/", {"game": "kartenduell", "players": "2"}).status_code == 404
    assert not Match.objects.exists()
    with override_settings(GAME_AUTHOR_TOOLS=True):
        client.post("/author/hotseat/", {"game": "kartenduell", "players": "2"})
    pk = HotSeat.objects.get().match_id
    assert client.get(f"/author/hotseat/{pk}/seat/0/").status_code == 404
    assert client.post(f"/author/hotseat/{pk}/seat/0/act/", {"version": "0"}).status_code == 404


@override_settings(GAME_AUTHOR_TOOLS=True)
def test_one_person_plays_every_seat_through_the_services(client, make_user):
    author, other = make_user("author"), make_user("other")
    client.force_login(author)
    assert client.post("/author/hotseat/", {"game": "kartenduell", "players": "9"}).status_code == 200  # refused
    r = client.post("/author/hotseat/", {"game": "kartenduell", "players": "3"})
    match = Match.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/author/hotseat/{match.pk}/seat/{match.to_move[0]}/"
    assert not match.public and match.players == 3
    seats = {s.seat: s.user for s in match.seats.select_related("user")}
    assert [seats[n].username for n in range(3)] == ["#1 author", "#2 author", "#3 author"]
    assert not any(u.is_active or u.has_usable_password() for u in seats.values())
    moves = 0
    while match.status == Match.Status.ACTIVE and moves < 40:
        seat = match.to_move[0]
        page = client.get(f"/author/hotseat/{match.pk}/seat/{seat}/").content.decode()
        assert 'id="hotseat-state"' in page and f'data-seat="{seat}"' in page
        action = re.search(r'name="action" value="([^"]+)"', page).group(1).replace("&quot;", '"')
        r = client.post(f"/author/hotseat/{match.pk}/seat/{seat}/act/", {"version": str(match.version), "action": action})
        assert r.status_code == 302
        match.refresh_from_db()
        moves += 1
    assert match.status == Match.Status.FINISHED and LogEntry.objects.filter(match=match).count() == moves
    # one person at every seat: nobody's rating moves
    from ratings.models import Rating, RatedMatch
    from ratings.services import rate_match

    assert rate_match(match.pk) is False
    assert RatedMatch.objects.get(match=match).reason == "hot_seat" and not Rating.objects.exists()
    # a refused move keeps the seat's table and says why
    r = client.post(f"/author/hotseat/{match.pk}/seat/0/act/", {"version": str(match.version), "action": "{}"},
                    follow=True)
    assert "This match is over." in r.content.decode()
    # somebody else's hot-seat match does not exist for them
    client.force_login(other)
    assert client.get(f"/author/hotseat/{match.pk}/seat/0/").status_code == 404


@override_settings(GAME_AUTHOR_TOOLS=True)
def test_every_registered_game_opens_on_the_hot_seat_table(client, make_user):
    from games import registry

    client.force_login(make_user("author"))
    for slug, plugin in sorted(registry.plugins().items()):
        r = client.post("/author/hotseat/", {"game": slug, "players": str(plugin.meta.min_players)}, follow=True)
        page = r.content.decode()
        assert r.status_code == 200 and 'id="hotseat-state"' in page and 'id="board"' in page, slug
        assert page.count("hotseat-seats") and page.count("data-seat=") >= plugin.meta.min_players
