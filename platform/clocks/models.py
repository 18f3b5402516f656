"""Time control per invitation/match, a clock per human seat, vacations and players' records."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TimeControl(models.Model):
    """How much time players have: set on an invitation, copied to its match at the start
    (matches started otherwise, e.g. by tournaments, get one from Match.move_days)."""

    class Mode(models.TextChoices):
        DAYS = "days", _("days per move")
        BANK = "bank", _("time bank with increment")

    class Policy(models.TextChoices):
        BOT = "bot", _("a bot takes over the seat")
        FORFEIT = "forfeit", _("the player forfeits")

    invitation = models.OneToOneField("lobby.Invitation", null=True, blank=True, on_delete=models.CASCADE,
                                      related_name="time_control")
    match = models.OneToOneField("matches.Match", null=True, blank=True, on_delete=models.CASCADE,
                                 related_name="time_control")
    mode = models.CharField(max_length=4, choices=Mode.choices, default=Mode.DAYS)
    move_days = models.PositiveSmallIntegerField(default=3)
    bank_hours = models.PositiveIntegerField(default=72)  # bank mode: starting bank
    increment_hours = models.PositiveIntegerField(default=24)  # bank mode: added after each move
    weekends_off = models.BooleanField(default=False)
    policy = models.CharField(max_length=8, choices=Policy.choices, default=Policy.BOT)
    # Who may join: at most this share of finished games lost on time (None: anyone).
    max_timeout_rate = models.FloatField(null=True, blank=True)
    # The version of the last match_changed applied (late or repeated signals are ignored).
    version = models.PositiveIntegerField(default=0)

    def budget_seconds(self, bank_seconds: float) -> float:
        return bank_seconds if self.mode == self.Mode.BANK else self.move_days * 86400.0


class SeatClock(models.Model):
    """The clock of one human seat. Running while ``started_at`` is set."""

    seat = models.OneToOneField("matches.Seat", on_delete=models.CASCADE, related_name="clock")
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="seat_clocks")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat_clocks")
    started_at = models.DateTimeField(null=True, blank=True)
    bank_seconds = models.FloatField(default=0)  # bank mode: what is left at the turn's start
    # 0: nothing sent this turn, 1: the first reminder, 2: the second, 3: timed out
    stage = models.PositiveSmallIntegerField(default=0)
    next_check_at = models.DateTimeField(null=True, blank=True)  # when the sweep must look again
    # When the running turn's time runs out (weekends off and vacations counted): set with
    # next_check_at by services._schedule, so "My games" can sort by it in SQL.
    deadline = models.DateTimeField(null=True, blank=True)
    moves = models.PositiveIntegerField(default=0)  # turns this seat finished by acting
    timed_out = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["next_check_at"], name="clock_next_check")]


class Vacation(models.Model):
    """A stretch in which none of the user's clocks run. ``auto``: taken by the clock itself
    just before a timeout."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations")
    start = models.DateTimeField()
    end = models.DateTimeField()
    auto = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["start"]
        indexes = [models.Index(fields=["user", "end"], name="vacation_user_end")]

    @property
    def days(self) -> float:
        return (self.end - self.start).total_seconds() / 86400


class PlayerRecord(models.Model):
    """What others see about a player's punctuality: finished turns, timeouts, recent turn times."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="clock_record")
    moves = models.PositiveIntegerField(default=0)
    timeouts = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)  # matches with a clock that this player finished or left
    recent = models.JSONField(default=list)  # seconds per turn, the last RECENT turns

    RECENT = 50

    @property
    def timeout_rate(self) -> float:
        return self.timeouts / self.games if self.games else 0.0

    @property
    def usual_seconds(self) -> float | None:
        if not self.recent:
            return None
        ordered = sorted(self.recent)
        return ordered[len(ordered) // 2]  # the median: one slow weekend does not dominate
