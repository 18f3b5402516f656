"""A user's access ends at once: on deactivation and on logout.

HTTP refuses an inactive user already (Django's ModelBackend, DRF's token authentication), but a
websocket authenticates once, at its handshake, and then kept receiving its seat's frames and
making moves. So:

- saving a user with ``is_active=False`` (suspension, deactivation, deletion by the accounts
  code: they all go through ``User.save``) deletes their sessions and API tokens in the same
  transaction and, after it commits, closes every open socket of theirs;
- a logout closes the sockets that were opened with that session (the user's other browsers
  stay signed in, and so do their sockets).

The sockets hear it on the user's own channel-layer group (``matches.live.user_group``), which
every signed-in socket joins (matches/consumers.py); the message reaches every server process
through the layer. ``QuerySet.update(is_active=False)`` sends no signal: use ``save()``.
"""
from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

logger = logging.getLogger(__name__)

MESSAGE = "access.ended"  # handled by matches.consumers.LiveConsumer.access_ended
CLOSE_CODE = 4401  # the close code the sockets get (as for a handshake without a user)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.access.deactivated")
def deactivated(sender, instance, created, **kwargs):
    if created or instance.is_active:
        return
    end_sessions(instance.pk)
    end_tokens(instance.pk)
    user_id = instance.pk
    transaction.on_commit(lambda: close_sockets(user_id))


@receiver(user_logged_out, dispatch_uid="accounts.access.logged_out")
def logged_out(sender, request, user, **kwargs):
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if user is not None and key:
        close_sockets(user.pk, session_key=key)


def end_sessions(user_id: int) -> int:
    """Deletes the user's sessions. Sessions hold their user only inside the signed data, so
    the live ones are read and decoded (deactivation is rare; a login makes one row). Cache
    or cookie sessions cannot be listed: there HTTP's refusal of inactive users is the guard."""
    if settings.SESSION_ENGINE not in ("django.contrib.sessions.backends.db",
                                       "django.contrib.sessions.backends.cached_db"):
        return 0
    from importlib import import_module

    from django.contrib.sessions.models import Session

    store = import_module(settings.SESSION_ENGINE).SessionStore
    mine = str(user_id)
    keys = [row.session_key for row in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
            if store().decode(row.session_data).get("_auth_user_id") == mine]
    for key in keys:
        store(session_key=key).delete()  # cached_db: the cache's copy too
    return len(keys)


def end_tokens(user_id: int) -> int:
    from django.apps import apps

    if not apps.is_installed("rest_framework.authtoken"):
        return 0
    from rest_framework.authtoken.models import Token

    return Token.objects.filter(user_id=user_id).delete()[0]


def close_sockets(user_id: int, session_key: str | None = None) -> None:
    """Every open socket of the user (``session_key``: only those opened with that session)
    closes with CLOSE_CODE."""
    from channels.layers import get_channel_layer

    from core.livesend import group_send
    from matches.live import user_group

    layer = get_channel_layer()
    if layer is None:
        return
    try:
        group_send(layer, user_group(user_id), {"type": MESSAGE, "session": session_key})
    except Exception:  # the layer is away: sessions and tokens are gone all the same
        logger.warning("closing the sockets of user %s failed", user_id, exc_info=True)
