"""Notifications: what happened (Notification, shown in the centre), how it is delivered
(Delivery: one row per channel and browser, the idempotency key of every send), what the user
wants (Preference), their browsers (PushSubscription) and daily digests (Digest)."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=30)
    match = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    data = models.JSONField(default=dict)
    # Idempotency: the same event (e.g. "turn:<match>:<seat>:<moves>") notifies a user once.
    key = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notification_user_key")]
        indexes = [models.Index(fields=["user", "-created_at"], name="notification_user_created"),
                   models.Index(fields=["user", "read_at"], name="notification_user_read")]
        ordering = ["-created_at", "-id"]


class Delivery(models.Model):
    """One send of a notification on one channel (e-mail; push: one per browser). A send
    happens only while the row is PENDING and under its row lock, so a task that runs twice
    (redelivered after a crash, re-enqueued by the flush) never sends twice."""

    class Channel(models.TextChoices):
        EMAIL = "email"
        PUSH = "push"

    class Status(models.TextChoices):
        PENDING = "pending"  # a task is (or will be) enqueued
        # Waits for not_before, then is sent only if still wanted (notifications/attention.py):
        # the turn still open, the match not opened since, the player away.
        DEFERRED = "deferred"
        SKIPPED = "skipped"  # not sent: the turn was played or the notice seen before it was due
        HELD = "held"  # quiet hours: the flush releases it at not_before
        DIGEST = "digest"  # goes out with the user's daily digest
        SENT = "sent"
        FAILED = "failed"  # gave up after retries, or the address/browser is gone

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=5, choices=Channel.choices)
    subscription = models.ForeignKey("PushSubscription", null=True, blank=True, on_delete=models.CASCADE,
                                     related_name="deliveries")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    not_before = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    digest = models.ForeignKey("Digest", null=True, blank=True, on_delete=models.SET_NULL, related_name="deliveries")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["notification", "channel"], condition=Q(subscription__isnull=True),
                                    name="delivery_once_per_channel"),
            models.UniqueConstraint(fields=["notification", "subscription"], condition=Q(subscription__isnull=False),
                                    name="delivery_once_per_browser"),
        ]
        indexes = [models.Index(fields=["status", "not_before"], name="delivery_status_due")]


class NextGame(models.TextChoices):
    DEADLINE = "deadline", _("the game with the least time left")
    WAITING = "waiting", _("the game that has waited longest")


class TurnMail(models.TextChoices):
    NOW = "now", _("at once")
    QUARTER = "15m", _("after 15 minutes")
    HOUR = "1h", _("after 1 hour")
    DIGEST = "digest", _("only in the daily digest")


class TurnPush(models.TextChoices):
    NOW = "now", _("at once")
    TWO = "2m", _("after 2 minutes")
    QUARTER = "15m", _("after 15 minutes")
    HOUR = "1h", _("after 1 hour")


DELAYS = {"now": 0, "2m": 120, "15m": 900, "1h": 3600}  # seconds


class Preference(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_preference")
    channels = models.JSONField(default=dict)  # kind -> ["email", "push"]; missing kinds use the defaults
    digest = models.BooleanField(default=False)  # e-mails collected into one a day
    digest_hour = models.PositiveSmallIntegerField(default=8)  # local hour of the digest
    quiet_start = models.TimeField(null=True, blank=True)  # local; nothing is sent in between
    quiet_end = models.TimeField(null=True, blank=True)
    last_digest_on = models.DateField(null=True, blank=True)
    # Where "Next game" leads: the match whose clock runs out first, or the longest waiting one.
    next_game = models.CharField(max_length=8, choices=NextGame.choices, default=NextGame.DEADLINE)
    # When a "your turn" (and chat, start, end) notice goes out if the player is away and has
    # not looked (notifications/attention.py); deadline warnings never wait.
    turn_mail = models.CharField(max_length=6, choices=TurnMail.choices, default=TurnMail.QUARTER)
    turn_push = models.CharField(max_length=6, choices=TurnPush.choices, default=TurnPush.TWO)


class PushSubscription(models.Model):
    """One browser's push endpoint and keys (from PushManager.subscribe)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.CharField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    user_agent = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)


class Digest(models.Model):
    """One daily digest mail; (user, day) unique: the idempotency key of the digest."""

    class Status(models.TextChoices):
        PENDING = "pending"
        SENT = "sent"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="digests")
    day = models.DateField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="digest_user_day")]
