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
    # A seat left (resigned, timed out) in a match of 3+ players is offered to substitutes for
    # this many hours before a bot keeps it for good; 0: a bot takes it at once.
    substitute_hours = models.PositiveSmallIntegerField(default=24)
    # The finished match this invitation is the rematch of (one open rematch per match).
    rematch_of = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="rematches")
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


class SubstituteOffer(models.Model):
    """A seat left in a running match of 3+ players, offered in the lobby and to the players'
    friends until ``expires_at``. Meanwhile the seat's bot plays on (the match does not wait);
    a substitute who takes it gets the seat (``matches.services.hand_over_seat``); on expiry the
    bot keeps it."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        TAKEN = "taken", _("taken")
        EXPIRED = "expired", _("expired")
        CLOSED = "closed", _("closed")  # the match ended first

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="substitute_offers")
    seat = models.PositiveSmallIntegerField()
    leaver = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.CharField(max_length=20)  # resigned / timeout
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    substitute = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="substitutions")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    taken_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], condition=models.Q(status="open"),
                                               name="suboffer_one_open_per_seat")]
        indexes = [models.Index(fields=["status", "expires_at"], name="suboffer_status_expires")]
        ordering = ["expires_at", "id"]
