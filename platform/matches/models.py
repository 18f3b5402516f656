"""A match is its setup record + an append-only action log + a snapshot of the state.

The snapshot is what the log rebuilds (services.replay); it exists so that a move does not
replay the whole game. ``version`` counts log entries and is the optimistic-lock token
clients send with every action.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Match(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    game = models.CharField(max_length=40, db_index=True)
    engine_version = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    # Resolved per-seat choices (e.g. a Der Orden deck as its card list), fixed at the start.
    choices = models.JSONField(default=list)
    seed = models.BigIntegerField()  # never leaves the server
    state = models.JSONField()  # snapshot after the last log entry
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    outcome = models.JSONField(null=True, blank=True)
    to_move = models.JSONField(default=list)  # seats that must act now
    move_days = models.PositiveSmallIntegerField(default=3)
    public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-updated_at"], name="match_status_updated")]

    def __str__(self):
        return f"{self.game} #{self.pk}"


class NotifyLevel(models.TextChoices):
    ALL = "all", _("everything")
    TURN = "turn", _("only my turn")
    NONE = "none", _("nothing (muted)")


class Seat(models.Model):
    """One seat of a match. ``to_move`` mirrors Match.to_move so "my games, my turn first"
    is one indexed query."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="seats")
    bot = models.CharField(max_length=20, blank=True)  # set: a bot plays this seat
    to_move = models.BooleanField(default=False)
    to_move_since = models.DateTimeField(null=True, blank=True)
    resigned = models.BooleanField(default=False)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True)
    # Mirrors "this seat has a SeatOrders row with orders": the move path reads the seats anyway,
    # so it learns without another query whether a seat to move left orders (matches/orders.py).
    has_orders = models.BooleanField(default=False)
    # What this seat's user hears about the match (notifications.services filters by it; on the
    # seat row because the move's follow-up reads the seat anyway: no query per "your turn").
    notify_level = models.CharField(max_length=5, choices=NotifyLevel.choices, default=NotifyLevel.ALL)
    # The id of the last chat message the seat's user has read (0: none): the unread mark, and
    # the key that lets a chat line notify once until it is read.
    chat_read = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="seat_unique")]
        indexes = [models.Index(fields=["user", "to_move"], name="seat_user_to_move")]
        ordering = ["seat"]

    @property
    def name(self) -> str:
        if self.user_id:
            return self.user.username
        return f"Bot ({self.bot})"


class SeatOrders(models.Model):
    """A seat's standing orders (decisions left in advance, ``matches/orders.py``): private to
    the seat's player, never shown to anyone else. ``dropped``: premoves the server dropped since
    the player last changed their orders (shown on their table)."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, primary_key=True, related_name="standing_orders")
    # Who set them: orders belong to a person, not a seat. A hand-over ends them (the substitute
    # starts with none); the owner's export lists them, their deletion erases them.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+")
    orders = models.JSONField(default=list)
    dropped = models.JSONField(default=list)


class LogEntry(models.Model):
    """Append-only. ``kind`` = action (an engine action), undo (takes back the entry it names),
    resign (platform event), penalty (a judge's game penalty, ``Plugin.apply_penalty``).
    Replaying kinds action/undo/penalty rebuilds the snapshot."""

    class Kind(models.TextChoices):
        ACTION = "action"
        UNDO = "undo"
        RESIGN = "resign"
        END = "end"  # the platform ended the match (e.g. the game's time limit), no seat acted
        PENALTY = "penalty"  # a judge's game penalty on ``seat`` (``action`` = {"penalty": ...})
        # A substitute took over ``seat`` (events: {"type": "substitute", "left", "joined"}: user
        # ids and names): who played which moves stays in the log, the leaver keeps the departure.
        SEAT = "seat"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField()  # == match version after this entry
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.ACTION)
    seat = models.PositiveSmallIntegerField(null=True)
    action = models.JSONField(null=True)
    events = models.JSONField(default=list)
    reveals = models.BooleanField(default=False)
    undoes = models.PositiveIntegerField(null=True, blank=True)  # seq of the undone entry
    undone = models.BooleanField(default=False)
    # Who acted, as at the time of writing (a later substitute does not take over the past):
    # the seat's user, or the bot that played it. Null actor and empty bot: written before these
    # fields existed (the seat's current holder is named) or no seat acted.
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+", db_constraint=False)
    actor_bot = models.CharField(max_length=20, blank=True, default="")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="log_seq_unique")]
        ordering = ["seq"]


class ChatMessage(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    text = models.CharField(max_length=500)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["match", "at"], name="chat_match_at")]


class FollowUp(models.Model):
    """How far the follow-ups of a match's changes went (matches/progress.py): ``version`` is
    the newest version whose receivers have all been run; ``owed`` names the receivers that
    raised and are still owed (receiver name -> the version it failed at), retried by the sweep
    at ``retry_at``. The match's own committed ``version`` is the record of what happened, so a
    move writes nothing here: a match whose row is behind its version has follow-ups to redo."""
    match = models.OneToOneField(Match, primary_key=True, on_delete=models.CASCADE, related_name="followup",
                                 db_constraint=False)  # written after commit: a match deleted meanwhile is no error
    version = models.PositiveIntegerField(default=0)
    owed = models.JSONField(default=dict, blank=True)
    owed_since = models.DateTimeField(null=True, blank=True)
    retry_at = models.DateTimeField(null=True, blank=True, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"follow-up of match {self.match_id} at v{self.version}"
class SeatNote(models.Model):
    """A player's private notes in a match ("what was my plan?"): they belong to the person who
    wrote them, not to the seat. Written by the seated player, read by them alone, also after
    they left (matches/notes.py); a substitute starts with none. Never part of a view, a frame,
    the log or an export for anyone else."""

    MAX_LENGTH = 10_000

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="seatnote_match_user")]
