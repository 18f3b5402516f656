"""The block list refuses joins and chat messages; friends get one-click private invitations."""
import pytest
from django.test import Client

from community import services as community
from community.models import Block, Friendship
from community.rules import BlockedFromChat
from lobby import services as lobby
from lobby.errors import LobbyError
from lobby.models import Invitation
from matches import chat
from matches.models import ChatMessage
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db


def _client(user):
    c = Client()
    c.force_login(user)
    return c


def test_a_blocked_user_cannot_join_my_invitation(make_user):
    host, pest, friend = make_user("host"), make_user("pest"), make_user("friend")
    community.block(host, "pest")
    invitation = lobby.create_invitation(host, game="kartenduell", players=3)
    with pytest.raises(LobbyError) as exc:
        lobby.join(invitation.pk, pest)
    assert exc.value.status == 403 and "block" in exc.value.message
    lobby.join(invitation.pk, friend)  # others still can
    assert Invitation.objects.get(pk=invitation.pk).seats_taken == 2


def test_blocks_work_both_ways_and_for_every_seated_player(make_user):
    host, guest, late = make_user("host"), make_user("guest"), make_user("late")
    community.block(late, "host")  # the joiner blocked the host
    inv = lobby.create_invitation(host, game="kartenduell", players=3)
    with pytest.raises(LobbyError):
        lobby.join(inv.pk, late)
    community.unblock(late, "host")
    community.block(guest, "late")  # a player already seated blocked the joiner
    lobby.join(inv.pk, guest)
    with pytest.raises(LobbyError):
        lobby.join(inv.pk, late)


def test_join_refusals_through_the_api_and_the_page(make_user):
    host, pest = make_user("host"), make_user("pest")
    community.block(host, "pest")
    inv = lobby.create_invitation(host, game="kartenduell", players=2)
    c = _client(pest)
    r = c.post(f"/api/invitations/{inv.pk}/join/", {"choices": {}}, content_type="application/json")
    assert r.status_code == 403 and r.json()["error"] == "invitation_error" and "block" in r.json()["detail"]
    r = c.post(f"/invitations/{inv.pk}/join/", {}, follow=True)
    assert r.status_code == 200 and "block" in r.content.decode()
    assert Invitation.objects.get(pk=inv.pk).seats_taken == 1


def test_a_blocked_user_cannot_message_me(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    chat.post(match.pk, bob, "hello")
    community.block(alice, "bob")
    with pytest.raises(BlockedFromChat):
        chat.post(match.pk, bob, "still there?")
    chat.post(match.pk, alice, "bye")  # the blocker may still write
    r = _client(bob).post(f"/matches/{match.pk}/chat/", {"text": "via the page"}, follow=True)
    assert r.status_code == 200 and "blocked you" in r.content.decode()
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["hello", "bye"]


def test_friends_blocking_ends_friendship_and_refusals(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    community.add_friend(alice, "bob")
    community.add_friend(bob, "alice")
    community.block(alice, "bob")
    assert not Friendship.objects.exists() and Block.objects.count() == 1
    with pytest.raises(community.CommunityError):
        community.add_friend(bob, "alice")
    with pytest.raises(community.CommunityError):
        community.add_friend(alice, "alice")


def test_friend_and_block_through_the_profile_pages(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    c = _client(alice)
    assert c.post("/users/bob/friend/").status_code == 302
    page = c.get("/users/alice/").content.decode()
    assert 'data-friend="bob"' in page
    assert 'id="invite-friend"' in c.get("/users/bob/").content.decode()
    c.post("/friends/block/", {"username": "bob"})
    page = c.get("/users/alice/").content.decode()
    assert 'data-blocked="bob"' in page and 'data-friend="bob"' not in page
    assert c.post("/users/nobody/friend/").status_code == 404
    assert Client().post("/users/bob/friend/").status_code == 302  # to the log-in page
    assert not Friendship.objects.exists()


def test_one_click_private_invitation_to_a_friend(make_user):
    alice, bob, eve = make_user("alice"), make_user("bob"), make_user("eve")
    community.add_friend(alice, "bob")
    c = _client(alice)
    page = c.get("/users/bob/invite/")
    assert page.status_code == 200 and 'name="game"' in page.content.decode()
    r = c.post("/users/bob/invite/", {"game": "kartenduell", "players": 2, "move_days": 3})
    assert r.status_code == 302
    inv = Invitation.objects.get()
    assert inv.private and list(inv.invitees.values_list("username", flat=True)) == ["bob"]
    with pytest.raises(LobbyError):
        lobby.join(inv.pk, eve)
    inv = lobby.join(inv.pk, bob)
    assert inv.match_id is not None and not inv.match.public
    r = c.post("/users/bob/invite/", {"game": "kartenduell", "players": 9, "move_days": 3})
    assert r.status_code == 200 and Invitation.objects.count() == 1  # a form error, not a 500


def test_no_private_invitation_across_a_block(make_user):
    """A private invitation (and its comment) lands in the invitee's lobby: a blocked user
    cannot address one to me, nor I to someone I blocked."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    community.block(alice, "bob")
    for host, invitee in ((bob, "alice"), (alice, "bob")):
        with pytest.raises(LobbyError, match="block") as exc:
            lobby.create_invitation(host, game="kartenduell", players=3, private=True,
                                    invitees=[invitee, "carol"], comment="hi")
        assert exc.value.status == 403
    assert not Invitation.objects.exists()
    r = _client(bob).post("/users/alice/invite/", {"game": "kartenduell", "players": 2, "move_days": 3})
    assert r.status_code == 200 and "block" in r.content.decode() and not Invitation.objects.exists()
    lobby.create_invitation(bob, game="kartenduell", players=2, private=True, invitees=["carol"])
