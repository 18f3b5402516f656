"""The pages after a match: the rematch button at a match's end, the lobby's "substitute
wanted" section (constant query count), the match page's waiting seat, the offer page."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from lobby.models import Invitation, SubstituteOffer
from matches import services
from matches.models import Seat
from tests.conftest import wait_for
from tests.platform.helpers import start_minigame
from tests.ratings.play import play_to_end, plays_only

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_rematch_button_makes_one_invitation(client, make_user, celery_worker):
    a, b, c, watcher = (make_user(n) for n in ("a", "b", "c", "watcher"))
    match = play_to_end(start_minigame(a, b, c), plays_only)
    client.force_login(watcher)
    assert 'id="rematch"' not in client.get(f"/matches/{match.pk}/").content.decode()
    client.force_login(a)
    assert 'id="rematch"' in client.get(f"/matches/{match.pk}/").content.decode()
    answer = client.post(f"/matches/{match.pk}/rematch/")
    invitation = Invitation.objects.get(rematch_of=match)
    assert answer.status_code == 302 and answer["Location"] == f"/invitations/{invitation.pk}/"
    client.force_login(b)
    again = client.post(f"/matches/{match.pk}/rematch/")
    assert again["Location"] == f"/invitations/{invitation.pk}/"
    assert Invitation.objects.filter(rematch_of=match).count() == 1
    running = start_minigame(a, b, c)
    client.force_login(a)
    assert 'id="rematch"' not in client.get(f"/matches/{running.pk}/").content.decode()


def _left_seat(host, *others):
    match = start_minigame(host, *others)
    services.resign(match.pk, others[-1])
    return match, wait_for(lambda: SubstituteOffer.objects.filter(match=match).first())


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_lobby_lists_substitutes_with_a_constant_query_count(client, make_user, celery_worker):
    viewer = make_user("viewer")
    client.force_login(viewer)
    users = [make_user(f"long-name-player-{i:02d}") for i in range(15)]
    _left_seat(*users[:3])
    one = _queries(client, "/lobby/")
    for i in range(3, 15, 3):
        _left_seat(*users[i:i + 3])
    many = _queries(client, "/lobby/")
    assert one == many, f"lobby: {one} queries with 1 offer, {many} with 5"
    page = client.get("/lobby/").content.decode()
    assert 'id="substitutes"' in page and page.count("data-offer=") == 5


def test_match_page_shows_the_waiting_seat_and_the_offer_page_hands_it_over(client, make_user, celery_worker):
    a, b, c, d = (make_user(n) for n in ("a", "b", "c", "d"))
    match, offer = _left_seat(a, b, c)
    client.force_login(a)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="substitute-waiting"' in page and f"Seat {offer.seat + 1} is waiting for a substitute" in page
    client.force_login(c)
    refused = client.post(f"/substitutes/{offer.pk}/")
    assert refused.status_code == 403 and "cannot come back" in refused.content.decode()
    client.force_login(d)
    shown = client.get(f"/substitutes/{offer.pk}/").content.decode()
    assert 'id="take-seat"' in shown
    taken = client.post(f"/substitutes/{offer.pk}/")
    assert taken.status_code == 302 and taken["Location"] == f"/matches/{match.pk}/"
    assert Seat.objects.get(match=match, seat=offer.seat).user == d
    client.force_login(a)
    assert 'id="substitute-waiting"' not in client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="substitute-closed"' in client.get(f"/substitutes/{offer.pk}/").content.decode()


def test_a_private_matchs_offer_is_for_the_players_friends_only(client, make_user, celery_worker):
    from community import services as community

    a, b, c, friend, stranger = (make_user(n) for n in ("a", "b", "c", "friend", "stranger"))
    community.add_friend(a, "friend")
    match = start_minigame(a, b, c, private=True, invitees=["b", "c"])
    services.resign(match.pk, c)
    offer = wait_for(lambda: SubstituteOffer.objects.filter(match=match).first())
    client.force_login(stranger)
    assert client.get(f"/substitutes/{offer.pk}/").status_code == 404
    assert 'id="substitutes"' not in client.get("/lobby/").content.decode()
    client.force_login(friend)
    assert client.get(f"/substitutes/{offer.pk}/").status_code == 200
    client.force_login(a)  # a player follows the match page's link to the offer
    assert client.get(f"/substitutes/{offer.pk}/").status_code == 200
