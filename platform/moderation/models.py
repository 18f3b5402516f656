from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Report(models.Model):
    """Someone reports a player, optionally about a match or one chat line of theirs.
    ``chat_text`` keeps the reported line as it was (the line itself may be erased later)."""

    class Category(models.TextChoices):
        ABUSE = "abuse", _("insults or harassment")
        CHEATING = "cheating", _("cheating or collusion")
        STALLING = "stalling", _("stalling")
        NAME = "name", _("offensive name")
        SPAM = "spam", _("spam")
        OTHER = "other", _("something else")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        HANDLED = "handled", _("handled")
        DISMISSED = "dismissed", _("dismissed")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_against")
    match = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    chat_message = models.ForeignKey("matches.ChatMessage", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    chat_text = models.CharField(max_length=500, blank=True)
    category = models.CharField(max_length=10, choices=Category.choices, default=Category.OTHER)
    reason = models.TextField(max_length=1000)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["status", "-created_at"]
        indexes = [models.Index(fields=["reported", "status"], name="report_reported_status")]

    def __str__(self):
        return f"#{self.pk} {self.reported} ({self.get_category_display()})"


class Sanction(models.Model):
    """What a moderator did: a warning (the user is told), a chat mute (until ``until``, or for
    good), a suspension (``User.is_active`` False: sessions, tokens and sockets end)."""

    class Kind(models.TextChoices):
        WARN = "warn", _("warning")
        MUTE = "mute", _("chat mute")
        SUSPEND = "suspend", _("suspension")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    reason = models.CharField(max_length=500, blank=True)
    until = models.DateTimeField(null=True, blank=True)  # mutes: None = until lifted
    lifted = models.BooleanField(default=False)
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="sanctions")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "kind"], name="sanction_user_kind")]
