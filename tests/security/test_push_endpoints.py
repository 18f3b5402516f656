"""Push subscriptions cannot make the server send requests where it should
not. Only https endpoints of known browser push services whose every address is public; keys
checked at once; a permanent refusal is not retried. No test sends traffic anywhere: an IP
literal is refused without a lookup, names resolve through a stub, and the one send test
points the worker at a loopback service refused before any connection is opened."""
import base64
import socket

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from rest_framework.test import APIClient

from notifications import push, pushguard
from notifications.models import Delivery, PushSubscription

pytestmark = pytest.mark.django_db
URL = "/api/notifications/push-subscriptions/"


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def browser_keys() -> dict:
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"p256dh": b64(point), "auth": b64(b"0123456789abcdef")}


@pytest.fixture
def production(settings, monkeypatch):
    """The production rules (the suite allows its loopback push service) and a DNS stub."""
    settings.PUSH_ALLOW_LOOPBACK = False
    names = {"fcm.googleapis.com": ["142.250.185.74"], "updates.push.services.mozilla.com": ["34.117.65.55"],
             "evil.push.services.mozilla.com": ["127.0.0.1"], "rebind.notify.windows.com": ["10.0.0.5"],
             "mixed.push.apple.com": ["17.1.1.1", "169.254.169.254"], "v6.push.apple.com": ["::ffff:127.0.0.1"]}
    looked_up = []

    def stub(host):
        looked_up.append(host)
        if host not in names:
            raise socket.gaierror("unknown in the stub")
        return names[host]

    monkeypatch.setattr(pushguard, "resolve", stub)
    return names, looked_up


@pytest.fixture
def client(make_user):
    api = APIClient()
    api.force_authenticate(make_user("pushy"))
    return api


REFUSED = [
    "http://127.0.0.1:8399/x", "https://127.0.0.1/x", "http://localhost:6379/", "https://localhost/x",
    "https://[::1]/x", "https://169.254.169.254/latest/meta-data/", "https://10.0.0.1/x",
    "http://fcm.googleapis.com/fcm/send/abc",           # not https
    "https://fcm.googleapis.com:8443/fcm/send/abc",     # another port
    "https://user:pw@fcm.googleapis.com/fcm/send/abc",  # credentials
    "https://example.org/push",                          # not a push service
    "https://fcm.googleapis.com.evil.example/x",         # suffix trick
    "https://evil.push.services.mozilla.com/x",          # resolves to loopback
    "https://rebind.notify.windows.com/x",               # resolves to a private address
    "https://mixed.push.apple.com/x",                    # one address is link-local
    "https://v6.push.apple.com/x",                       # IPv4-mapped loopback
    "https://unknown.push.apple.com/x",                  # does not resolve
]


@pytest.mark.parametrize("endpoint", REFUSED)
def test_forged_endpoints_are_refused(production, client, endpoint):
    r = client.post(URL, {"endpoint": endpoint, "keys": browser_keys()}, format="json")
    assert r.status_code == 400 and r.json()["error"] in ("invalid_subscription", "invalid"), r.content
    assert not PushSubscription.objects.exists()


def test_ip_literals_are_refused_without_a_lookup(production):
    _, looked_up = production
    for endpoint in ("https://127.0.0.1/x", "https://[::1]/x", "https://8.8.8.8/x", "http://10.1.2.3/"):
        with pytest.raises(pushguard.EndpointRefused):
            pushguard.check_endpoint(endpoint)
    assert looked_up == []


def test_real_push_services_are_accepted(production, client):
    for endpoint in ("https://fcm.googleapis.com/fcm/send/abc:def", "https://updates.push.services.mozilla.com/wpush/v2/x"):
        r = client.post(URL, {"endpoint": endpoint, "keys": browser_keys()}, format="json")
        assert r.status_code == 201, r.content
    assert PushSubscription.objects.count() == 2


@pytest.mark.parametrize("keys", [
    {"p256dh": "not-a-key", "auth": b64(b"0123456789abcdef")},
    {"p256dh": b64(b"\x04" + b"\x01" * 64), "auth": b64(b"0123456789abcdef")},  # not on the curve
    {"p256dh": None, "auth": "x"},
])
def test_invalid_keys_are_refused_up_front(production, client, keys):
    if keys["p256dh"] is None:
        keys = {"p256dh": browser_keys()["p256dh"], "auth": b64(b"short")}
    r = client.post(URL, {"endpoint": "https://fcm.googleapis.com/fcm/send/k", "keys": keys}, format="json")
    assert r.status_code == 400 and r.json()["error"] == "invalid_subscription", r.content
    assert not PushSubscription.objects.exists()


def _pending_delivery(user, endpoint: str) -> Delivery:
    from notifications.models import Notification

    sub = PushSubscription.objects.create(user=user, endpoint=endpoint, **browser_keys())
    n = Notification.objects.create(user=user, kind="your_turn", data={}, key=f"push-guard-{endpoint}")
    return Delivery.objects.create(notification=n, channel=Delivery.Channel.PUSH, subscription=sub)


def test_a_stored_forged_endpoint_is_never_contacted_and_not_retried(production, make_user, monkeypatch):
    """A subscription stored before these checks (or whose name now resolves elsewhere): the
    send refuses it before any connection, marks the delivery failed for good (no retry)."""
    user = make_user("old")
    contacted = []
    monkeypatch.setattr(push, "webpush", lambda *a, **k: contacted.append(a))
    for endpoint in ("http://127.0.0.1:8399/x", "https://rebind.notify.windows.com/x"):
        d = _pending_delivery(user, endpoint)
        assert push.send_delivery(d.pk) == "failed"
        d.refresh_from_db()
        assert d.status == Delivery.Status.FAILED and d.error.startswith("refused")
    assert contacted == []


def test_a_permanent_refusal_by_the_push_service_is_not_retried(production, make_user, monkeypatch):
    from pywebpush import WebPushException

    class Answer:
        def __init__(self, code):
            self.status_code, self.text, self.headers = code, "", {}

    user = make_user("perm")
    for code, temporary in ((400, False), (403, False), (301, False), (413, False), (429, True), (503, True)):
        d = _pending_delivery(user, f"https://fcm.googleapis.com/fcm/send/{code}")

        def refuse(*a, code=code, **k):
            raise WebPushException("refused", response=Answer(code))

        monkeypatch.setattr(push, "webpush", refuse)
        if temporary:
            with pytest.raises(push.TemporaryFailure):
                push.send_delivery(d.pk)
        else:
            assert push.send_delivery(d.pk) == "failed"
            d.refresh_from_db()
            assert d.status == Delivery.Status.FAILED


def test_the_send_follows_no_redirect():
    session = push.NoRedirects()
    seen = {}

    def fake_send(request, **kwargs):
        seen.update(kwargs)
        raise RuntimeError("stop before any connection")

    session.send = fake_send
    with pytest.raises(RuntimeError):
        session.post("https://fcm.googleapis.com/fcm/send/x", data=b"")
    assert seen.get("allow_redirects") is False
