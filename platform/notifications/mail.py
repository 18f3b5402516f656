"""E-mails of notifications and digests: built in the user's language, sent once.

Deliveries (``send_batch``): one task claims up to ``conf.BATCH_SIZE`` due e-mail deliveries
(its own first) under their row locks (``SKIP LOCKED``: concurrent senders take disjoint
rows), marks them SENDING with its claim token and commits; then sends them one after the
other over the process's one SMTP connection (smtp.py) and commits "sent" after each 250.
Failures go back to PENDING with a back-off and a task of their own (or FAILED after
``conf.MAX_ATTEMPTS``).

Crash policy (issue 5: lose nothing, send nothing twice): a sender killed before the final
"." leaves a half message the server discards; a sender killed after the "." but before its
"sent" commit leaves a SENDING row. Which of the two happened cannot be known, so the flush
sends stale SENDING rows again rather than losing them, with the same ``Message-ID``
(``<spieltisch.n<id>.email@domain>``, fixed per delivery): the mail is never lost, and in the
one window where the server may already hold it (between its 250 and our commit, about a
millisecond) the repeat carries the same Message-ID, which receiving systems use to drop
duplicates. Digests (``send_digest``) still commit "sent" before the final "." (a kill in the
sub-millisecond window between that commit and the "." loses the digest instead).
"""
from __future__ import annotations

import email.policy
import logging
import secrets
import time
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from . import conf, smtp
from .kinds import KINDS, game_name, text
from .models import Delivery, Digest
from .services import local_time_text, unsubscribe_token, user_lang

logger = logging.getLogger(__name__)


class TemporaryFailure(Exception):
    """Try again later (server down, 4xx)."""


def _unsubscribe_url(user_id: int, kind: str) -> str:
    return conf.site_url() + reverse("notifications:unsubscribe", args=[unsubscribe_token(user_id, kind)])


def message_id(key: str) -> str:
    """Fixed per message (the idempotency key), so that a repeat after a crash can be told."""
    domain = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip(">").strip() or "localhost"
    return f"<spieltisch.{key.replace(':', '.')}@{domain}>"


def _message(user, subject: str, template: str, context: dict, kind: str, key: str) -> EmailMultiAlternatives:
    lang = user_lang(user)
    unsubscribe = _unsubscribe_url(user.id, kind)
    context = {**context, "user": user, "unsubscribe_url": unsubscribe, "site_url": conf.site_url(),
               "unsubscribe_all_url": _unsubscribe_url(user.id, "all"),
               "settings_url": conf.site_url() + reverse("notifications:settings")}
    with translation.override(lang):
        body = render_to_string(f"notifications/mail/{template}.{lang}.txt", context)
        html = render_to_string(f"notifications/mail/{template}.{lang}.html", context)
    msg = EmailMultiAlternatives(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email], headers={
        "List-Unsubscribe": f"<{unsubscribe}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",  # RFC 8058: one click in the mail client
        "Message-ID": message_id(key),
        "X-Spieltisch-Key": key,
    })
    msg.attach_alternative(html, "text/html")
    return msg


def delivery_message(delivery: Delivery) -> EmailMultiAlternatives:
    n = delivery.notification
    user = n.user
    lang = user_lang(user)
    data = dict(n.data)
    if data.get("until"):
        from datetime import datetime

        data["until_text"] = local_time_text(datetime.fromisoformat(data["until"]), user)
    line = text(n.kind, data, lang)
    url = conf.site_url() + data.get("url", reverse("notifications:centre"))
    subject = f"Spieltisch: {line}"
    if len(subject) > 110:
        subject = subject[:107] + "…"
    context = {"line": line, "url": url, "kind": n.kind, "game": game_name(data, lang),
               "opponents": data.get("opponents", []), "data": data,
               "kind_label": KINDS.get(n.kind, (n.kind,))[0]}
    return _message(user, subject, "message", context, n.kind, f"n{n.pk}.{delivery.channel}")


def send(msg: EmailMultiAlternatives, mark_sent):
    """Send ``msg``; ``mark_sent()`` runs in the caller's transaction before the final "."
    (SMTP; the caller commits, then calls ``finish``) or after the backend sent it (console,
    locmem). Returns the pending SMTP transaction or None."""
    if not smtp.uses_smtp():
        msg.send()
        mark_sent()
        return None
    raw = msg.message(policy=email.policy.SMTP).as_bytes()
    try:
        pending = smtp.begin(msg.from_email, msg.recipients(), raw)
    except Exception as exc:
        raise TemporaryFailure(str(exc)[:300]) from exc
    try:
        mark_sent()
    except BaseException:
        pending.abort()
        raise
    return pending


def finish(pending, on_refused) -> None:
    """The final "." after the commit. Refused: ``on_refused()`` reopens the row, retry."""
    if pending is None:
        return
    try:
        pending.finish()
    except smtp.smtplib.SMTPResponseException as exc:
        on_refused()
        raise TemporaryFailure(str(exc)[:300]) from exc
    except OSError:
        # The "." went out but no answer came: the server most likely has the mail; sending
        # it again could duplicate it, so it stays "sent".
        logger.warning("no answer to the end of a mail; counted as sent", exc_info=True)


def _backoff(attempts: int) -> int:
    """Seconds before the next try after ``attempts`` failed ones: 10, 20, 40, … ≤ 600."""
    return min(600, 10 * 2 ** max(0, attempts - 1))


def claim(first_id: int, limit: int | None = None, now=None) -> str:
    """PENDING → SENDING for ``first_id`` and up to ``limit - 1`` other due e-mail deliveries;
    returns the claim token ("" if ``first_id`` is not PENDING: sent, or taken by another)."""
    limit = limit or conf.BATCH_SIZE
    now = now or timezone.now()
    token = secrets.token_hex(16)
    pending = Delivery.objects.select_for_update(skip_locked=True).filter(
        status=Delivery.Status.PENDING, channel=Delivery.Channel.EMAIL)
    with transaction.atomic():
        ids = list(pending.filter(pk=first_id).values_list("pk", flat=True))
        if not ids:
            return ""
        if limit > 1:
            ids += list(pending.filter(Q(not_before__isnull=True) | Q(not_before__lte=now)).exclude(pk=first_id)
                        .order_by("pk").values_list("pk", flat=True)[:limit - 1])
        # The status condition makes the claim exclusive on databases without row locks too.
        Delivery.objects.filter(pk__in=ids, status=Delivery.Status.PENDING).update(
            status=Delivery.Status.SENDING, claim=token, claimed_at=now)
    return token


def send_batch(first_id: int, limit: int | None = None) -> str:
    """Claim and send (see the module docstring); "skipped" if ``first_id`` was not PENDING."""
    from .services import enqueue

    token = claim(first_id, limit)
    if not token:
        return "skipped"
    mine = Delivery.objects.filter(claim=token, status=Delivery.Status.SENDING)
    batch = list(mine.select_related("notification__user__profile").order_by("pk"))
    started = time.monotonic()
    retry: list[tuple[int, int]] = []
    result = "skipped"
    for i, delivery in enumerate(batch):
        if time.monotonic() - started > conf.BATCH_SECONDS:  # slow server: hand the rest back
            rest = [d.pk for d in batch[i:]]
            mine.filter(pk__in=rest).update(status=Delivery.Status.PENDING, claim="")
            enqueue(rest)
            break
        try:
            msg = delivery_message(delivery)
            if smtp.uses_smtp():
                smtp.send(msg.from_email, msg.recipients(), msg.message(policy=email.policy.SMTP).as_bytes())
            else:
                msg.send()
        except Exception as exc:  # refused, server down, no answer after the ".": try again later
            logger.warning("mail of delivery %s failed: %s", delivery.pk, exc)
            attempts = delivery.attempts + 1
            if attempts >= conf.MAX_ATTEMPTS:
                mine.filter(pk=delivery.pk).update(status=Delivery.Status.FAILED, attempts=attempts,
                                                   error=str(exc)[:300], claim="")
            else:
                wait = _backoff(attempts)
                mine.filter(pk=delivery.pk).update(status=Delivery.Status.PENDING, attempts=attempts,
                                                   error=str(exc)[:300], claim="",
                                                   not_before=timezone.now() + timedelta(seconds=wait))
                retry.append((delivery.pk, wait))
            if delivery.pk == first_id:
                result = "later"
            continue
        mine.filter(pk=delivery.pk).update(status=Delivery.Status.SENT, sent_at=timezone.now(),
                                           attempts=delivery.attempts + 1, error="")
        if delivery.pk == first_id:
            result = "sent"
    for delivery_id, wait in retry:
        enqueue([delivery_id], countdown=wait)
    return result


def digest_message(digest: Digest, deliveries: list[Delivery]) -> EmailMultiAlternatives:
    user = digest.user
    lang = user_lang(user)
    lines = [{"text": text(d.notification.kind, d.notification.data, lang),
              "url": conf.site_url() + d.notification.data.get("url", "/notifications/")} for d in deliveries]
    subject = (f"Spieltisch: {len(lines)} Neuigkeiten" if lang == "de" else f"Spieltisch: {len(lines)} updates")
    return _message(user, subject, "digest", {"lines": lines, "day": digest.day}, "all", f"digest{digest.pk}")


def send_digest(digest_id: int) -> str:
    with transaction.atomic():
        digest = (Digest.objects.select_for_update(of=("self",)).select_related("user__profile")
                  .filter(pk=digest_id).first())
        if digest is None or digest.status != Digest.Status.PENDING:
            return "skipped"
        deliveries = list(Delivery.objects.select_for_update(of=("self",)).filter(
            notification__user=digest.user, status=Delivery.Status.DIGEST)
            .select_related("notification").order_by("created_at"))
        if not deliveries:
            digest.status = Digest.Status.SENT
            digest.save(update_fields=["status"])
            return "empty"

        def mark_sent():
            now = timezone.now()
            digest.status, digest.sent_at = Digest.Status.SENT, now
            digest.save(update_fields=["status", "sent_at"])
            Delivery.objects.filter(pk__in=[d.pk for d in deliveries]).update(
                status=Delivery.Status.SENT, sent_at=now, digest=digest)

        pending = send(digest_message(digest, deliveries), mark_sent)

    def refused():
        Digest.objects.filter(pk=digest_id).update(status=Digest.Status.PENDING, sent_at=None)
        Delivery.objects.filter(digest_id=digest_id).update(status=Delivery.Status.DIGEST, sent_at=None, digest=None)

    finish(pending, refused)
    return "sent"
