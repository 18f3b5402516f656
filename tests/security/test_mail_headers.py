"""A CR/LF in user-made text (a tournament's name) neither injects a mail
header nor breaks that tournament's mails; a mail that cannot be built fails once, for good,
instead of being re-queued by the flush every minute forever."""
import email
import email.policy
from datetime import timedelta

import pytest
from django.core import mail as outbox
from django.utils import timezone

from notifications import conf, mail, services
from notifications.models import Delivery

pytestmark = pytest.mark.django_db
EVIL = "Cup\r\nBcc: victim@example.org\r\nX-Evil: 1\u2028Sub"


@pytest.fixture
def locmem(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    outbox.outbox = []


def _delivery(user, name):
    services.notify(user, "tournament_paired", {"tournament": name, "round": 1}, key=f"paired:{name!r}")
    return Delivery.objects.get(notification__user=user, channel=Delivery.Channel.EMAIL)


def test_crlf_in_a_tournament_name_neither_injects_nor_breaks(locmem, make_user):
    anna = make_user("anna")
    delivery = _delivery(anna, EVIL)
    assert mail.send_delivery(delivery.pk) == "sent"
    (msg,) = outbox.outbox
    assert msg.recipients() == [anna.email]
    raw = msg.message().as_bytes()
    parsed = email.message_from_bytes(raw, policy=email.policy.SMTP)
    assert parsed["Bcc"] is None and parsed["X-Evil"] is None
    assert "\r" not in parsed["Subject"] and "\n" not in parsed["Subject"] and "Cup Bcc:" in parsed["Subject"]
    # The SMTP path builds the same message with the SMTP policy: no error there either.
    mail.delivery_message(delivery).message(policy=email.policy.SMTP).as_bytes()
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.SENT


def test_a_mail_that_cannot_be_built_fails_for_good(locmem, make_user, monkeypatch):
    bert = make_user("bert")
    delivery = _delivery(bert, "Spring")

    def broken(d):
        raise ValueError("Header values may not contain linefeed or carriage return characters")

    monkeypatch.setattr(mail, "delivery_message", broken)
    assert mail.send_delivery(delivery.pk) == "failed"
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.FAILED and outbox.outbox == []
    later = timezone.now() + timedelta(minutes=conf.STUCK_MINUTES + 1)
    assert services.flush(now=later) == 0  # nothing re-queued


def test_flush_gives_up_after_the_last_attempt(locmem, make_user, monkeypatch):
    cleo = make_user("cleo")
    delivery = _delivery(cleo, "Autumn")
    Delivery.objects.filter(pk=delivery.pk).update(attempts=conf.MAX_ATTEMPTS)
    enqueued = []
    monkeypatch.setattr(services, "enqueue", lambda due: enqueued.extend(due))
    later = timezone.now() + timedelta(minutes=conf.STUCK_MINUTES + 1)
    services.flush(now=later)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.FAILED and enqueued == []
