"""Web push: VAPID keys, the payload and the send (pywebpush)."""
from __future__ import annotations

import base64
import json
import logging
import os
import threading

import requests
from cryptography.hazmat.primitives import serialization
from django.db import transaction
from django.utils import timezone
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from . import conf, pushguard
from .kinds import text
from .models import Delivery
from .recipients import user_lang

logger = logging.getLogger(__name__)
_lock = threading.Lock()
_vapid: Vapid02 | None = None


def vapid() -> Vapid02:
    """The server's VAPID key: VAPID_PRIVATE_KEY (PEM) from the environment, else the file
    var/vapid_private.pem, generated on first use."""
    global _vapid
    with _lock:
        if _vapid is not None:
            return _vapid
        pem = conf.get("VAPID_PRIVATE_KEY", "")
        if pem:
            _vapid = Vapid02.from_pem(pem.replace("\\n", "\n").encode())
            return _vapid
        path = conf.VAPID_FILE
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            key = Vapid02()
            key.generate_keys()
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            key.save_key(str(tmp))
            try:
                os.link(tmp, path)  # the first process wins; the others read its key
            except FileExistsError:
                pass
            finally:
                tmp.unlink(missing_ok=True)
        _vapid = Vapid02.from_file(str(path))
        return _vapid


def public_key() -> str:
    """The applicationServerKey for PushManager.subscribe (base64url, uncompressed point)."""
    raw = vapid().public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def payload(delivery: Delivery) -> dict:
    n = delivery.notification
    lang = user_lang(n.user)
    return {"title": "Spieltisch", "body": text(n.kind, n.data, lang), "kind": n.kind,
            "url": n.data.get("url", "/notifications/"), "tag": f"{n.kind}-{n.data.get('match', n.pk)}",
            "id": n.pk}


class TemporaryFailure(Exception):
    pass


class NoRedirects(requests.Session):
    """The push goes to the checked endpoint only: a redirect is an answer, not a new target."""

    def request(self, *args, **kwargs):
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def _give_up(delivery: Delivery, sub, error: str, *, forget: bool, outcome: str = "failed") -> str:
    delivery.status, delivery.error = Delivery.Status.FAILED, error[:300]
    delivery.save(update_fields=["status", "error"])
    if forget:
        sub_id = sub.pk
        transaction.on_commit(lambda: type(sub).objects.filter(pk=sub_id).delete())
    return outcome


def send_delivery(delivery_id: int) -> str:
    """One push to one browser. A push service collapses repeats with the same Topic, so the
    rare resend after a crash in the middle shows once."""
    with transaction.atomic():
        delivery = (Delivery.objects.select_for_update(of=("self",))
                    .select_related("notification__user__profile", "subscription").filter(pk=delivery_id).first())
        if delivery is None or delivery.status != Delivery.Status.PENDING or delivery.subscription is None:
            return "skipped"
        sub = delivery.subscription
        try:  # again at each send: the name may resolve elsewhere than when the browser subscribed
            pushguard.check_endpoint(sub.endpoint)
            pushguard.check_keys(sub.p256dh, sub.auth)
        except pushguard.EndpointRefused as exc:
            return _give_up(delivery, sub, f"refused: {exc}", forget=True)
        try:
            webpush({"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                    data=json.dumps(payload(delivery)), vapid_private_key=vapid(),
                    vapid_claims={"sub": conf.VAPID_SUBJECT}, ttl=conf.PUSH_TTL,
                    headers={"Topic": f"n{delivery.notification_id}"}, timeout=10,
                    requests_session=NoRedirects())
        except WebPushException as exc:
            code = getattr(exc.response, "status_code", None)
            if code in (404, 410):  # the browser unsubscribed: forget it
                return _give_up(delivery, sub, f"gone ({code})", forget=True, outcome="gone")
            if code is not None and code != 429 and code < 500:
                # Refused for good (a redirect, a bad request, a key the service rejects):
                # retrying cannot help.
                return _give_up(delivery, sub, f"refused ({code})", forget=code in (400, 401, 403))
            raise TemporaryFailure(str(exc)[:300]) from exc
        except (requests.RequestException, OSError) as exc:  # connection refused, timeout
            raise TemporaryFailure(str(exc)[:300]) from exc
        except (ValueError, TypeError) as exc:  # the payload cannot be encrypted for these keys: permanent
            return _give_up(delivery, sub, f"failed: {exc}"[:300], forget=True)
        delivery.status, delivery.sent_at = Delivery.Status.SENT, timezone.now()
        delivery.attempts += 1
        delivery.save(update_fields=["status", "sent_at", "attempts"])
    return "sent"
