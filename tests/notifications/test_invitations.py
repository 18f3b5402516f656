"""Invitations reach people: a private invitation tells each invitee once (centre + a real mail
through aiosmtpd, with accept and decline links); "invited to me" lists it on "My games" and in
the API until they join or decline; the host hears of a join, a decline and the start."""
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from lobby import services as lobby
from lobby.errors import LobbyError
from notifications.models import Notification
from tests.conftest import wait_for
from tests.notifications.helpers import body

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_private_invitation_mails_and_notifies_the_invitee_once_and_nobody_else(mail, make_user):
    host, anna, carl = make_user("host"), make_user("anna"), make_user("carl")
    inv = lobby.create_invitation(host, game="kartenduell", players=3, private=True, invitees=["anna"],
                                  comment="Revanche?")
    msgs = wait_for(lambda: mail.to(anna.email))
    # Exactly one mail and one centre entry for the invitee...
    assert len(msgs) == 1
    msg = msgs[0]
    assert "host invites you to Card duel (1/3)" in msg["Subject"]
    text = body(msg)
    assert f"Accept: http://127.0.0.1:8000/invitations/{inv.pk}/" in text
    assert f"Decline: http://127.0.0.1:8000/invitations/{inv.pk}/#decline" in text
    assert "Revanche?" in text
    assert list(Notification.objects.filter(user=anna).values_list("kind", flat=True)) == ["invited"]
    # ...and none for the host or a stranger.
    assert not Notification.objects.filter(user__in=[host, carl]).exists()
    assert mail.to(host.email) == [] and mail.to(carl.email) == []
    # The same event announced again (a repeated signal): no second mail or entry.
    from notifications.receivers import invited

    invited(None, invitation_id=inv.pk)
    assert Notification.objects.filter(user=anna).count() == 1
    # The invitation page offers both answers to her.
    page = _client(anna).get(f"/invitations/{inv.pk}/").content.decode()
    assert 'id="join-form"' in page and 'id="decline"' in page


def test_german_invitee_gets_a_german_mail(mail, make_user):
    host, anna = make_user("host"), make_user("anna")
    anna.profile.language = "de"
    anna.profile.save(update_fields=["language"])
    lobby.create_invitation(host, game="kartenduell", players=2, private=True, invitees=["anna"])
    msg = wait_for(lambda: mail.to(anna.email))[0]
    assert "host lädt dich zu Kartenduell ein" in msg["Subject"]
    assert "Annehmen:" in body(msg) and "Ablehnen:" in body(msg)


def test_decline_tells_the_host_and_leaves_the_invited_list(mail, make_user):
    host, anna, bert, carl = make_user("host"), make_user("anna"), make_user("bert"), make_user("carl")
    inv = lobby.create_invitation(host, game="kartenduell", players=3, private=True, invitees=["anna", "bert"])
    anna_c = _client(anna)
    mine = anna_c.get("/my-games/").content.decode()
    assert f'data-invitation="{inv.pk}"' in mine and "Invited to me" in mine
    assert [i["id"] for i in anna_c.get("/api/invitations/?invited=1").json()] == [inv.pk]

    # A stranger may not decline (a private invitation answers them as a missing one would);
    # the host neither.
    r = _client(carl).post(f"/api/invitations/{inv.pk}/decline/")
    missing = _client(carl).post("/api/invitations/999999/decline/")
    assert r.status_code == missing.status_code == 404 and r.json() == missing.json()
    assert _client(host).post(f"/api/invitations/{inv.pk}/decline/").status_code == 403

    # Anna declines on the page: she leaves her list; the host hears it by centre and mail.
    r = anna_c.post(f"/invitations/{inv.pk}/decline/")
    assert r.status_code == 302 and r["Location"] == "/my-games/"
    assert f'data-invitation="{inv.pk}"' not in anna_c.get("/my-games/").content.decode()
    assert anna_c.get("/api/invitations/?invited=1").json() == []
    assert Notification.objects.get(user=anna, kind="invited").read_at is not None  # answered: read
    note = Notification.objects.get(user=host, kind="invitation_declined")
    assert note.data["player"] == "anna"
    assert any("anna declined your invitation" in m["Subject"] for m in wait_for(lambda: mail.to(host.email)))
    assert anna_c.post(f"/api/invitations/{inv.pk}/decline/").status_code == 409  # twice: refused clearly

    # Bert accepts (joins): the host hears it; the invitation leaves bert's list.
    bert_c = _client(bert)
    assert bert_c.post(f"/api/invitations/{inv.pk}/join/", {}, content_type="application/json").status_code == 200
    assert bert_c.get("/api/invitations/?invited=1").json() == []
    assert Notification.objects.filter(user=host, kind="invitation_joined").count() == 1
    assert Notification.objects.get(user=bert, kind="invited").read_at is not None
    assert Client().get("/api/invitations/?invited=1").status_code == 401


def test_host_hears_when_the_match_starts(mail, make_user):
    host, anna = make_user("host"), make_user("anna")
    inv = lobby.create_invitation(host, game="kartenduell", players=2, private=True, invitees=["anna"])
    lobby.join(inv.pk, anna)
    inv.refresh_from_db()
    kinds = set(Notification.objects.filter(user=host, match_id=inv.match_id).values_list("kind", flat=True))
    assert kinds & {"match_started", "your_turn"}  # to move: "your turn"; else "has started"


def test_cancel_tells_the_waiting_invitees(mail, make_user):
    host, anna = make_user("host"), make_user("anna")
    inv = lobby.create_invitation(host, game="kartenduell", players=3, private=True, invitees=["anna"])
    lobby.cancel(inv.pk, host)
    assert Notification.objects.filter(user=anna, kind="invitation_cancelled").count() == 1
    assert Notification.objects.get(user=anna, kind="invited").read_at is not None
    with pytest.raises(LobbyError):
        lobby.decline(inv.pk, anna)


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_invited_to_me_lists_cost_constant_queries(make_user, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    anna = make_user("anna")
    hosts = [make_user(f"host{i}") for i in range(6)]
    lobby.create_invitation(hosts[0], game="kartenduell", players=3, private=True, invitees=["anna"])
    client = _client(anna)
    page_few, api_few = _queries(client, "/my-games/"), _queries(client, "/api/invitations/?invited=1")
    for h in hosts[1:]:
        inv = lobby.create_invitation(h, game="kartenduell", players=4, private=True, invitees=["anna"],
                                      bots=["random-legal"])
    page = client.get("/my-games/").content.decode()
    assert len(re.findall(r'<li data-invitation="\d+"', page)) == 6
    assert _queries(client, "/my-games/") == page_few
    assert len(client.get("/api/invitations/?invited=1").json()) == 6
    assert _queries(client, "/api/invitations/?invited=1") == api_few


def test_a_public_invitation_naming_a_friend_tells_the_friend(mail, make_user):
    host, friend, stranger = make_user("host"), make_user("friend"), make_user("stranger")
    inv = lobby.create_invitation(host, game="kartenduell", players=3, invitees=["friend"])
    assert not inv.private
    assert len(wait_for(lambda: mail.to(friend.email))) == 1
    assert Notification.objects.filter(user=friend, kind="invited").count() == 1
    assert not Notification.objects.filter(user=stranger).exists()
    assert [i["id"] for i in _client(friend).get("/api/invitations/?invited=1").json()] == [inv.pk]
    lobby.join(inv.pk, stranger)  # public: anyone may still join
    # The new kinds are settings like any other.
    page = _client(friend).get("/notifications/settings/").content.decode()
    assert "Someone invited you to a game" in page and "Someone declined your invitation" in page


def test_a_join_pushes_a_seats_frame_to_the_hosts_pages(make_user, settings):
    """The host's invitation page reloads its seat list on this frame (live.js), without
    waiting for its poll."""
    import json

    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from matches.live import user_group

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    host, anna = make_user("host"), make_user("anna")
    inv = lobby.create_invitation(host, game="kartenduell", players=3)
    layer = get_channel_layer()
    import asyncio

    from asgiref.sync import sync_to_async

    async def scenario():  # one event loop: a pub/sub layer's subscriptions belong to their loop
        channel = await layer.new_channel()
        await layer.group_add(user_group(host.id), channel)
        await sync_to_async(lobby.join)(inv.pk, anna)
        frames = []
        while not frames or frames[-1]["type"] != "invitation":  # the join also brings the "joined" frame
            frames.append(json.loads((await asyncio.wait_for(layer.receive(channel), 10))["text"]))
        return frames

    frames = async_to_sync(scenario)()
    assert frames[-1] == {"type": "invitation", "invitation": inv.pk, "seats_taken": 2}
    # The seat list itself: 204 while unchanged, the new list otherwise.
    client = _client(host)
    assert client.get(f"/invitations/{inv.pk}/seats/?taken=2").status_code == 204
    part = client.get(f"/invitations/{inv.pk}/seats/?taken=1").content.decode()
    assert 'data-taken="2"' in part and "anna" in part
    assert _client(make_user("carl")).get(f"/invitations/{inv.pk}/seats/").status_code == 200  # public
    private = lobby.create_invitation(host, game="kartenduell", players=3, private=True, invitees=["anna"])
    assert _client(make_user("dora")).get(f"/invitations/{private.pk}/seats/").status_code == 404
    lobby.cancel(inv.pk, host)  # withdrawn: the waiting pages go to the invitation page, which says so
    assert _client(anna).get(f"/invitations/{inv.pk}/seats/?taken=2")["HX-Redirect"] == f"/invitations/{inv.pk}/"


def test_the_mail_link_asks_a_logged_out_invitee_to_log_in_first(make_user):
    host, anna = make_user("host"), make_user("anna")
    inv = lobby.create_invitation(host, game="kartenduell", players=2, private=True, invitees=["anna"])
    r = Client().get(f"/invitations/{inv.pk}/")
    assert r.status_code == 302 and r["Location"] == f"/accounts/login/?next=/invitations/{inv.pk}/"
    # A missing invitation answers the same (nothing to learn for a stranger); logged in: 404.
    assert Client().get(f"/invitations/{inv.pk + 99}/")["Location"].startswith("/accounts/login/")
    assert _client(make_user("carl")).get(f"/invitations/{inv.pk}/").status_code == 404
    assert _client(anna).get(f"/invitations/{inv.pk}/").status_code == 200


def test_accept_in_my_games_joins_the_invitation(make_user):
    """"Accept" in My games is a join, not a link to the invitation page: posting its
    form seats the player; filling the last seat starts the match and opens it."""
    host, anna = make_user("host"), make_user("anna")
    inv = lobby.create_invitation(host, game="kartenduell", players=2, private=True, invitees=["anna"])
    client = _client(anna)
    mine = client.get("/my-games/").content.decode()
    form = re.search(r'<form method="post" action="([^"]+)" class="inline accept">.*?</form>', mine, re.S)
    assert form and form.group(1) == f"/invitations/{inv.pk}/join/" and "Accept" in form.group(0)
    r = client.post(form.group(1))
    inv.refresh_from_db()
    assert inv.status == "started" and r.status_code == 302 and r["Location"] == f"/matches/{inv.match_id}/"
    assert f'data-invitation="{inv.pk}"' not in client.get("/my-games/").content.decode()
