"""Web push to a local HTTP endpoint that decrypts each message with the subscription's keys
(RFC 8291, aes128gcm), as a browser would; VAPID signs every request."""
import json

import pytest
from django.test import Client

from notifications import services
from notifications.models import Delivery, PushSubscription
from notifications.push import public_key
from tests.conftest import wait_for
from tests.notifications.helpers import browser_keys, decrypt_push, fall_due
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)


def _subscribe(client, endpoint_url):
    private, auth, keys = browser_keys()
    r = client.post("/api/notifications/push-subscriptions/", {"endpoint": endpoint_url, "keys": keys},
                    content_type="application/json")
    assert r.status_code == 201, r.content
    return private, auth


def test_turn_push_arrives_encrypted_and_signed(push_endpoint, notification_worker, make_user):
    anna, bert = make_user("anna"), make_user("bert")
    clients = {}
    keys = {}
    for u in (anna, bert):
        clients[u.id] = Client()
        clients[u.id].force_login(u)
        keys[u.id] = _subscribe(clients[u.id], f"{push_endpoint.url}/push/{u.username}")
    assert clients[anna.id].get("/api/notifications/push-subscriptions/").json()["public_key"] == public_key()

    match = start_minigame(anna, bert)
    first = to_move_user(match)
    # A turn push waits 2 minutes (the default) after the player left: their last request (the
    # subscription above) counts as present for 3 minutes.
    fall_due(2)
    assert not push_endpoint.received
    fall_due(6)
    got = wait_for(lambda: [p for p in push_endpoint.received if p["path"] == f"/push/{first.username}"])
    push = got[0]
    assert push["headers"]["content-encoding"] == "aes128gcm"
    assert f"k={public_key()}" in push["headers"]["authorization"]  # VAPID: our server's key
    payload = json.loads(decrypt_push(push["body"], *keys[first.id]))
    assert payload["url"] == f"/matches/{match.pk}/"
    assert "Your turn in Card duel" in payload["body"]
    assert payload["kind"] == "your_turn"


def test_unsubscribed_browser_gets_nothing_and_gone_endpoints_are_forgotten(push_endpoint, notification_worker,
                                                                            make_user):
    anna = make_user("anna")
    client = Client()
    client.force_login(anna)
    _subscribe(client, f"{push_endpoint.url}/push/one")
    assert client.delete("/api/notifications/push-subscriptions/", {"endpoint": f"{push_endpoint.url}/push/one"},
                         content_type="application/json").status_code == 204
    services.notify(anna, "tournament_paired", {"tournament": "T", "round": 1}, key="p1")
    assert not Delivery.objects.filter(channel="push").exists()

    _subscribe(client, f"{push_endpoint.url}/push/two")
    push_endpoint.status = 410  # the browser dropped the subscription
    services.notify(anna, "tournament_paired", {"tournament": "T", "round": 2}, key="p2")
    wait_for(lambda: not PushSubscription.objects.filter(user=anna).exists())
    assert [p["path"] for p in push_endpoint.received] == ["/push/two"]  # tried once, then forgotten
    assert not Delivery.objects.filter(channel="push").exists()  # went with the subscription


def test_subscription_input_is_checked(make_user):
    client = Client()
    client.force_login(make_user("anna"))
    r = client.post("/api/notifications/push-subscriptions/", {"endpoint": "not a url"},
                    content_type="application/json")
    assert r.status_code == 400 and r.json()["error"]
    assert Client().post("/api/notifications/push-subscriptions/", {}, content_type="application/json") \
        .status_code in (401, 403)


def test_service_worker_served_from_the_root():
    r = Client().get("/sw.js")
    assert r.status_code == 200 and r["Content-Type"].startswith("application/javascript")
    assert r["Service-Worker-Allowed"] == "/"
    assert b"showNotification" in r.content
