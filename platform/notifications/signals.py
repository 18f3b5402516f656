"""Signals inside the notifications app, from the modules that write deliveries to the tasks.

Direction: the Celery tasks run the senders, the attention rules and the flush, so ``tasks``
imports them; when those lower modules have sends (or decisions) due, they say so here and
``tasks`` (the one receiver of each, connected in ``NotificationsConfig.ready``) queues the task.
A send that is not queued is not lost: its Delivery row stays PENDING and the flush queues it.

- ``sends_due(deliveries)``: (delivery id, channel) pairs that are PENDING now (outbox.py).
- ``release_due(user_ids)``: deferred notices of these users to decide now, not at the next
  flush (attention.release_soon).
"""
from django.dispatch import Signal

sends_due = Signal()
release_due = Signal()
