"""Celery tasks of notifications. They take ids, run on the ``notifications`` queue, are
acknowledged late (a killed worker's task is delivered again) and are idempotent: the
Delivery/Digest row says whether the send already happened.

Direction: a task runs the senders (mail, push), the attention rules and the flush, so this
module imports them; they ask for a task through ``signals`` (``queue_sends``, ``queue_release``
receive them, connected in ``NotificationsConfig.ready``).
"""
import logging

from celery import shared_task

from . import conf

logger = logging.getLogger(__name__)


def _backoff(retries: int) -> int:
    return min(600, 10 * 2 ** retries)


def _send(delivery_id: int, channel: str) -> str:
    from . import mail, push
    from .models import Delivery

    return (mail if channel == Delivery.Channel.EMAIL else push).send_delivery(delivery_id)


def _record_failure(delivery_id: int, attempts: int, exc: Exception) -> None:
    from .models import Delivery

    Delivery.objects.filter(pk=delivery_id).update(attempts=attempts, error=str(exc)[:300])


def _temporary_failures():
    from . import mail, push

    return (mail.TemporaryFailure, push.TemporaryFailure)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             max_retries=conf.MAX_ATTEMPTS)
def deliver(self, delivery_id: int, channel: str | None = None) -> str:
    from .models import Delivery

    if channel is None:  # a task queued before the channel was passed along
        channel = Delivery.objects.filter(pk=delivery_id).values_list("channel", flat=True).first()
        if channel is None:
            return "missing"
    try:
        return _send(delivery_id, channel)
    except _temporary_failures() as exc:
        attempts = self.request.retries + 1
        _record_failure(delivery_id, attempts, exc)
        if self.request.is_eager:
            return "later"  # in-process (embedded default): the periodic flush tries again
        if attempts > conf.MAX_ATTEMPTS:
            Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.PENDING).update(
                status=Delivery.Status.FAILED)
            return "failed"
        raise self.retry(countdown=_backoff(self.request.retries), exc=exc)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def deliver_many(items: list[list]) -> int:
    """The sends one task made due (outbox.publish_collected), one after the other. A send
    that fails for now goes on alone as ``deliver``'s first retry; sending twice is impossible
    (the Delivery row says whether it happened), so a redelivered batch does no harm."""
    sent = 0
    for delivery_id, channel in items:
        try:
            _send(delivery_id, channel)
            sent += 1
        except _temporary_failures() as exc:
            _record_failure(delivery_id, 1, exc)
            deliver.apply_async((delivery_id, channel), countdown=_backoff(0), retries=1)
    return sent


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             max_retries=conf.MAX_ATTEMPTS)
def send_digest(self, digest_id: int) -> str:
    from . import mail

    try:
        return mail.send_digest(digest_id)
    except mail.TemporaryFailure as exc:
        if self.request.is_eager:
            return "later"
        raise self.retry(countdown=_backoff(self.request.retries), exc=exc)


@shared_task(acks_late=True, ignore_result=True)
def flush() -> int:
    """Quiet hours over, lost tasks: re-enqueue (beat, every minute)."""
    from .services import flush as run

    return run()


@shared_task(acks_late=True, ignore_result=True)
def release(user_ids: list[int] | None = None) -> dict:
    """Decide the due deferred notices (of ``user_ids``): see attention.release."""
    from .attention import release as run

    return run(user_ids=user_ids)


@shared_task(acks_late=True, ignore_result=True)
def digests() -> int:
    """Daily digests whose hour has come (beat, every 10 minutes)."""
    return digests_due()


def digests_due(now=None) -> int:
    """Send today's digest to users whose digest hour has come (in their time zone)."""
    from django.db import transaction
    from django.utils import timezone

    from .models import Delivery, Digest, Preference
    from .recipients import quiet_until, user_tz

    now = now or timezone.now()
    user_ids = set(Delivery.objects.filter(status=Delivery.Status.DIGEST)
                   .values_list("notification__user_id", flat=True).distinct())
    started = 0
    for pref in Preference.objects.filter(user_id__in=user_ids).select_related("user__profile"):
        local = now.astimezone(user_tz(pref.user))
        if local.hour < pref.digest_hour or pref.last_digest_on == local.date():
            continue
        if quiet_until(pref, user_tz(pref.user), now):
            continue
        with transaction.atomic():
            digest, created = Digest.objects.get_or_create(user=pref.user, day=local.date())
            Preference.objects.filter(pk=pref.pk).update(last_digest_on=local.date())
            if digest.status == Digest.Status.PENDING:
                digest_id = digest.pk
                transaction.on_commit(lambda: send_digest.delay(digest_id))
                started += 1
    return started


# --- the receivers of signals.py: the lower modules ask for these tasks -------------------------------
def queue_sends(sender=None, *, deliveries: list[tuple[int, str]], **_) -> None:
    """Queue the sends of (delivery id, channel) pairs (outbox.py)."""
    try:
        if len(deliveries) == 1:
            deliver.delay(*deliveries[0])
        else:
            deliver_many.delay([list(d) for d in deliveries])
    except Exception:  # the broker is down: the flush re-enqueues PENDING rows later
        logger.warning("could not enqueue deliveries %s", [d for d, _ in deliveries], exc_info=True)


def queue_release(sender=None, *, user_ids: list[int], **_) -> None:
    """Queue the decision of these users' deferred notices (attention.release_soon)."""
    try:
        release.delay(sorted(user_ids))
    except Exception:  # the broker is down: the flush decides them within a minute
        logger.warning("could not queue the release of users %s", sorted(user_ids), exc_info=True)
