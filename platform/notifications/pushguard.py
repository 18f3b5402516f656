"""Which push endpoints the server will POST to (with its VAPID signature): a browser hands us
an URL, and without these checks anyone could make the worker send requests into our own
network (``http://127.0.0.1:6379``, the cloud's metadata address, ...).

An endpoint must be https on the default port, without credentials, on a host of a known push
service (PUSH_SERVICE_HOSTS: the browsers' services), and every address the host resolves to
must be public. Checked when a browser subscribes and again before each send (DNS can change);
the send follows no redirects. The subscription's keys must be a P-256 point and a 16-byte
secret, so a bad one is refused at once instead of failing at every send.

Tests and local development may allow a loopback endpoint (PUSH_ALLOW_LOOPBACK=1): the test
suite's local push service. Names are resolved by ``resolve`` (tests replace it with a stub).
"""
from __future__ import annotations

import base64
import binascii
import ipaddress
import socket
from urllib.parse import urlsplit

from django.utils.translation import gettext as _

from . import conf

# Chrome/Edge (FCM, WNS), Firefox (Mozilla autopush), Safari (Apple). A suffix matches the
# host itself and its subdomains.
DEFAULT_SERVICE_HOSTS = ("fcm.googleapis.com", "android.googleapis.com", "push.services.mozilla.com",
                         "push.apple.com", "notify.windows.com")


class EndpointRefused(ValueError):
    pass


def resolve(host: str) -> list[str]:
    """Every address of ``host`` (replaced by a stub in tests: they never look a name up)."""
    return sorted({info[4][0] for info in socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)})


def service_hosts() -> tuple[str, ...]:
    configured = conf.get("PUSH_SERVICE_HOSTS", "")
    if isinstance(configured, str):
        configured = [h.strip().lower() for h in configured.split(",") if h.strip()]
    return tuple(configured) or DEFAULT_SERVICE_HOSTS


def allow_loopback() -> bool:
    value = conf.get("PUSH_ALLOW_LOOPBACK", "")
    return value is True or str(value).lower() in ("1", "true", "yes")


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def check_endpoint(url: str) -> str:
    """The endpoint if the server may send to it; raises EndpointRefused (with a message for the
    user) otherwise. An IP literal is decided without any lookup."""
    try:
        parts = urlsplit(url)
        host, port = (parts.hostname or "").lower(), parts.port
    except ValueError:
        raise EndpointRefused(_("This is not a push endpoint URL.")) from None
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None and literal.is_loopback and allow_loopback() and parts.scheme in ("http", "https"):
        return url  # the test suite's local push service
    if parts.scheme != "https" or parts.username or parts.password or port not in (None, 443):
        raise EndpointRefused(_("A push endpoint must be an https URL of a browser's push service."))
    if literal is not None or not any(host == h or host.endswith("." + h) for h in service_hosts()):
        raise EndpointRefused(_("This is not the address of a known browser push service."))
    try:
        addresses = resolve(host)
    except (OSError, UnicodeError):
        raise EndpointRefused(_("The push service's address could not be found.")) from None
    if not addresses or not all(_public(a) for a in addresses):
        raise EndpointRefused(_("The push service's address is not a public one."))
    return url


def _b64(value: str) -> bytes:
    value = value.strip()
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def check_keys(p256dh: str, auth: str) -> None:
    """Raises EndpointRefused unless the keys are what a browser's PushSubscription holds."""
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        point, secret = _b64(p256dh), _b64(auth)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, TypeError, binascii.Error):
        raise EndpointRefused(_("The subscription's keys are not valid.")) from None
    if len(point) != 65 or len(secret) != 16:
        raise EndpointRefused(_("The subscription's keys are not valid."))
