"""Celery tasks of notifications. They take ids, run on the ``notifications`` queue, are
acknowledged late (a killed worker's task is delivered again) and are idempotent: the
Delivery/Digest row says whether the send already happened."""
from celery import shared_task

from . import conf


def _backoff(retries: int) -> int:
    return min(600, 10 * 2 ** retries)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             max_retries=conf.MAX_ATTEMPTS)
def deliver(self, delivery_id: int) -> str:
    """E-mail: send this delivery and the other due ones up to a batch (mail.send_batch, which
    schedules its own retries); a delivery sent by an earlier batch costs one query here.
    Push: this browser's delivery, retried by Celery."""
    from . import mail, push
    from .models import Delivery

    row = Delivery.objects.filter(pk=delivery_id).values_list("channel", "status").first()
    if row is None:
        return "missing"
    if row[1] != Delivery.Status.PENDING:
        return "skipped"  # sent already (by a batch, a redelivered or re-enqueued task)
    if row[0] == Delivery.Channel.EMAIL:
        return mail.send_batch(delivery_id)
    try:
        return push.send_delivery(delivery_id)
    except push.TemporaryFailure as exc:
        attempts = self.request.retries + 1
        wait = _backoff(self.request.retries)
        if attempts > conf.MAX_ATTEMPTS:
            Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.PENDING).update(
                attempts=attempts, error=str(exc)[:300], status=Delivery.Status.FAILED)
            return "failed"
        Delivery.objects.filter(pk=delivery_id).update(attempts=attempts, error=str(exc)[:300])
        if self.request.is_eager:  # in-process (embedded default): a timer thread tries again
            from .services import enqueue

            enqueue([delivery_id], countdown=wait)
            return "later"
        raise self.retry(countdown=wait, exc=exc)


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
def digests() -> int:
    """Daily digests whose hour has come (beat, every 10 minutes)."""
    from .services import digests_due

    return digests_due()
