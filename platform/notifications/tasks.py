"""Celery tasks of notifications. They take ids, run on the ``notifications`` queue, are
acknowledged late (a killed worker's task is delivered again) and are idempotent: the
Delivery/Digest row says whether the send already happened."""
from celery import shared_task

from . import conf


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
    """The sends one task made due (services.publish_collected), one after the other. A send
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
    from .services import digests_due

    return digests_due()
