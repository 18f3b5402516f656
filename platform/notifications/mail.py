"""E-mails of notifications and digests: built in the user's language, sent once.

Both hand the message to the SMTP server and commit "sent" before the final "." (see
smtp.py). ``send_delivery`` claims its row with one conditional UPDATE (PENDING -> SENT):
of two senders of the same row (a redelivered task beside a re-enqueued one) only one
claims it, the other closes its SMTP transaction without "." and the server drops it.
``send_digest`` holds the row locks of the digest and its deliveries instead.
"""
from __future__ import annotations

import email.policy
import logging
import unicodedata
from datetime import timedelta
from email.utils import make_msgid

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.verification import is_verified

from . import attention, conf, smtp
from .kinds import KINDS, game_name, text
from .models import Delivery, Digest
from .recipients import local_time_text, unsubscribe_token, user_lang

logger = logging.getLogger(__name__)
UNCONFIRMED = "the address is not confirmed"


class TemporaryFailure(Exception):
    """Try again later (server down, 4xx)."""


def _unsubscribe_url(user_id: int, kind: str) -> str:
    return conf.site_url() + reverse("notifications:unsubscribe", args=[unsubscribe_token(user_id, kind)])


def header_text(value: str) -> str:
    """A header value from user-made text (a tournament's name in a subject): control and
    line-separator characters become spaces, so a CR/LF can neither inject a header nor make
    the message unbuildable (Django refuses it with BadHeaderError, for good)."""
    cleaned = "".join(" " if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch for ch in str(value))
    return " ".join(cleaned.split())


def _message(user, subject: str, template: str, context: dict, kind: str, key: str) -> EmailMultiAlternatives:
    subject, key = header_text(subject), header_text(key)
    lang = user_lang(user)
    unsubscribe = _unsubscribe_url(user.id, kind)
    context = {**context, "user": user, "unsubscribe_url": unsubscribe, "site_url": conf.site_url(),
               "unsubscribe_all_url": _unsubscribe_url(user.id, "all"),
               "settings_url": conf.site_url() + reverse("notifications:settings")}
    with translation.override(lang):
        body = render_to_string(f"notifications/mail/{template}.{lang}.txt", context)
        html = render_to_string(f"notifications/mail/{template}.{lang}.html", context)
    domain = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip(">") or "localhost"
    msg = EmailMultiAlternatives(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email], headers={
        "List-Unsubscribe": f"<{unsubscribe}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",  # RFC 8058: one click in the mail client
        "Message-ID": make_msgid(idstring=key.replace(":", ".")[:60], domain=domain),
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
    decline = data.get("decline_url")
    context = {"line": line, "url": url, "kind": n.kind, "decline_url": conf.site_url() + decline if decline else "", "game": game_name(data, lang),
               "opponents": data.get("opponents", []), "data": data,
               "kind_label": KINDS.get(n.kind, (n.kind,))[0]}
    return _message(user, subject, "message", context, n.kind, f"n{n.pk}.{delivery.channel}")


class Claimed(Exception):
    """Another sender claimed the row first; nothing was sent here."""


def send(msg: EmailMultiAlternatives, mark_sent, unmark=None):
    """Send ``msg``; ``mark_sent()`` runs before the final "." (SMTP; once it is committed
    the caller calls ``finish``) or before the backend sends it (console, locmem; a failed
    send calls ``unmark()``). A ``mark_sent()`` that returns False (the row was claimed by
    another sender) aborts and raises Claimed. Returns the pending SMTP transaction or None."""
    if not smtp.uses_smtp():
        if mark_sent() is False:
            raise Claimed
        try:
            msg.send()
        except Exception as exc:
            if unmark is not None:
                unmark()
            raise TemporaryFailure(str(exc)[:300]) from exc
        return None
    raw = msg.message(policy=email.policy.SMTP).as_bytes()
    try:
        pending = smtp.begin(msg.from_email, msg.recipients(), raw)
    except Exception as exc:
        raise TemporaryFailure(str(exc)[:300]) from exc
    try:
        marked = mark_sent()
    except BaseException:
        pending.abort()
        raise
    if marked is False:
        pending.abort()
        raise Claimed
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


def send_delivery(delivery_id: int) -> str:
    # No row lock while the message is built and handed over: the claim below is the lock
    # (one statement in autocommit: 2 round trips per mail instead of 5, see performance.md).
    delivery = (Delivery.objects.select_related("notification__user__profile")
                .filter(pk=delivery_id, status=Delivery.Status.PENDING).first())
    if delivery is None:
        return "skipped"  # sent already (a redelivered or re-enqueued task)
    if delivery.notification.kind == attention.TURN:
        return send_turns(delivery_id)  # with the user's other turns that are due: one mail
    if not is_verified(delivery.notification.user):  # the address changed since it was written
        Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.PENDING).update(
            status=Delivery.Status.FAILED, error=UNCONFIRMED)
        return "unconfirmed"

    def claim() -> bool:
        return Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.PENDING).update(
            status=Delivery.Status.SENT, sent_at=timezone.now(), attempts=F("attempts") + 1) == 1

    def reopen() -> None:
        Delivery.objects.filter(pk=delivery_id).update(status=Delivery.Status.PENDING, sent_at=None)

    try:
        msg = delivery_message(delivery)
        msg.message()  # builds every header now: a message that cannot be built never will be
    except Exception as exc:
        # Permanent: retrying (or the flush re-queueing it every minute) cannot help.
        logger.exception("mail for delivery %s cannot be built", delivery_id)
        Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.PENDING).update(
            status=Delivery.Status.FAILED, error=f"cannot be built: {exc}"[:300])
        return "failed"
    try:
        pending = send(msg, claim, reopen)
    except Claimed:
        return "skipped"
    finish(pending, reopen)
    return "sent"


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
        # What no longer waits (the turn was played, the notice read) is left out.
        deliveries, gone = attention.still_waiting(deliveries)
        if gone:
            Delivery.objects.filter(pk__in=[d.pk for d in gone]).update(status=Delivery.Status.SKIPPED)
        if not deliveries:
            digest.status = Digest.Status.SENT
            digest.save(update_fields=["status"])
            return "empty"
        if not is_verified(digest.user):
            digest.status = Digest.Status.SENT
            digest.save(update_fields=["status"])
            Delivery.objects.filter(pk__in=[d.pk for d in deliveries]).update(
                status=Delivery.Status.FAILED, error=UNCONFIRMED)
            return "unconfirmed"

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


def _time_left(deadline, now, lang: str) -> str:
    if deadline is None:
        return ""
    hours = max(0, int((deadline - now).total_seconds() // 3600))
    if hours >= 48:
        days = hours // 24
        return f"noch {days} Tage" if lang == "de" else f"{days} days left"
    if lang == "de":
        return "noch 1 Stunde" if hours == 1 else ("weniger als 1 Stunde" if hours == 0 else f"noch {hours} Stunden")
    return "1 hour left" if hours == 1 else ("less than an hour left" if hours == 0 else f"{hours} hours left")


def turns_message(user, deliveries: list[Delivery], deadlines: dict) -> EmailMultiAlternatives:
    """One mail for the turns that fell due together, the most urgent (least time left) first."""
    lang = user_lang(user)
    now = timezone.now()
    far = now + timedelta(days=3650)
    rows = []
    for d in deliveries:
        data = d.notification.data
        deadline = deadlines.get((d.notification.match_id, user.pk))
        rows.append({"deadline": deadline or far, "line": text(attention.TURN, data, lang),
                     "game": f"{game_name(data, lang)} #{data.get('match', '')}",
                     "opponents": ", ".join(data.get("opponents", [])), "left": _time_left(deadline, now, lang),
                     "url": conf.site_url() + data.get("url", "/my-games/")})
    rows.sort(key=lambda r: r["deadline"])
    n = len(rows)
    if n == 1:
        subject = f"Spieltisch: {rows[0]['line']}"
        subject = subject if len(subject) <= 110 else subject[:107] + "…"
    else:
        subject = f"Spieltisch: Du bist in {n} Partien am Zug" if lang == "de" else f"Spieltisch: Your turn in {n} games"
    key = "turns." + ".".join(str(d.pk) for d in deliveries)  # (the drills count each delivery by it)
    return _message(user, subject, "turns", {"rows": rows, "count": n, "my_games_url": conf.site_url() + "/my-games/"},
                    attention.TURN, key)


def send_turns(delivery_id: int) -> str:
    """The user's "your turn" mails that are due (PENDING) as one mail (attention.py). Holds
    the rows' locks from the claim to the commit of "sent" (as the digest): a second task of
    the same batch finds its row sent and sends nothing."""
    with transaction.atomic():
        user_id = (Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.PENDING)
                   .values_list("notification__user_id", flat=True).first())
        if user_id is None:
            return "skipped"
        deliveries = list(Delivery.objects.select_for_update(of=("self",)).filter(
            notification__user_id=user_id, notification__kind=attention.TURN, channel=Delivery.Channel.EMAIL,
            status=Delivery.Status.PENDING).select_related("notification__user__profile").order_by("pk"))
        if delivery_id not in {d.pk for d in deliveries}:
            return "skipped"  # sent with another's batch meanwhile
        user = deliveries[0].notification.user
        if not is_verified(user):
            Delivery.objects.filter(pk__in=[d.pk for d in deliveries]).update(
                status=Delivery.Status.FAILED, error=UNCONFIRMED)
            return "unconfirmed"
        ids = [d.pk for d in deliveries]
        deadlines = attention.deadlines((d.notification.match_id, user_id) for d in deliveries)
        msg = turns_message(user, deliveries, deadlines)

        def mark_sent():
            Delivery.objects.filter(pk__in=ids).update(status=Delivery.Status.SENT, sent_at=timezone.now(),
                                                       attempts=F("attempts") + 1)

        pending = send(msg, mark_sent)

    def refused():
        Delivery.objects.filter(pk__in=ids).update(status=Delivery.Status.PENDING, sent_at=None)

    finish(pending, refused)
    return "sent"
