from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Invitation(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        STARTED = "started", _("started")
        CANCELLED = "cancelled", _("cancelled")

    game = models.CharField(max_length=40)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_invitations")
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    move_days = models.PositiveSmallIntegerField(default=3)
    private = models.BooleanField(default=False)
    invitees = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="invited_to")
    # Invitees who said no: the invitation leaves their "invited to me" list; the host is told.
    declined = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="declined_invitations")
    comment = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    seats_taken = models.PositiveSmallIntegerField(default=0)  # kept in step with entries
    match = models.OneToOneField("matches.Match", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="invitation")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "game", "-created_at"], name="inv_status_game_created"),
            models.Index(fields=["status", "-created_at"], name="inv_status_created"),
        ]
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.game} by {self.host} ({self.seats_taken}/{self.players})"

    @property
    def seats_free(self) -> int:
        return self.players - self.seats_taken


class Entry(models.Model):
    """A taken seat of an invitation: a user with their seat choices, or a bot the host added."""

    invitation = models.ForeignKey(Invitation, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="invitation_entries")
    bot = models.CharField(max_length=20, blank=True)
    choices = models.JSONField(default=dict)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["invitation", "user"], name="entry_unique_user",
                                               condition=models.Q(user__isnull=False))]
        ordering = ["joined_at", "id"]
