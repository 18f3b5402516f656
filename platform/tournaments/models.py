"""Tournaments and leagues: the setup, who takes part in which role, the rounds with their
tables (each a platform match) and results, and sanctions.

Only what cannot be derived is stored: pairings, byes, unpaired losses and results. Points,
tie-breakers, standings, the cut and the next bracket are computed by ``tournaments.logic``
from these rows and the tournament's seed (see loading.py).

Ratings: ``Tournament.rated`` says whether the tournament's matches count for ratings; a
match belongs to a tournament when a ``Table`` row points at it (``Table.objects.filter(
match_id=..., round__tournament__rated=True)``, or ``tournaments.queries.is_rated_match``).
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


# The most players a tournament table seats (Der Orden: 2 to 6; pods of 3 up to this many).
MAX_TABLE = 6


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        SWISS_CUT = "swiss_cut", _("Swiss with a cut")
        KNOCKOUT = "knockout", _("Knockout")
        LEAGUE = "league", _("League")

    # The structures and schemes are named after the rule documents they follow (Basis,
    # Fortgeschritten, Mittelerde, Eiserner Thron): English names here, the originals in German.
    class Structure(models.TextChoices):
        BASIS = "basis", _("Basic")
        FORTGESCHRITTEN = "fortgeschritten", _("Advanced")
        MITTELERDE = "mittelerde", _("Middle-earth")
        CUSTOM = "custom", _("Custom")

    class Scoring(models.TextChoices):
        EISERNER_THRON = "eiserner_thron", _("Iron Throne (5/4/0)")
        MITTELERDE = "mittelerde", _("Middle-earth")
        PLACEMENT = "placement", _("Placement points")
        # Der Orden: points = rank reached (VI+ 6.5, IX+ 9.5, X 10); leagues, and tournaments
        # played on time or rounds.
        LEAGUE = "league", _("League scoring (rank reached)")

    class Tiebreakers(models.TextChoices):
        EISERNER_THRON = "eiserner_thron", _("Strength of schedule")
        MITTELERDE = "mittelerde", _("Head-to-head, wins, opponents' points")

    class Level(models.TextChoices):
        CASUAL = "casual", _("casual")
        FORMAL = "formal", _("formal")
        PREMIUM = "premium", _("premium")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("open for sign-up")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(max_length=120)
    game = models.CharField(max_length=40, db_index=True)
    options = models.JSONField(default=dict)  # the game's options for every match
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SWISS)
    structure = models.CharField(max_length=16, choices=Structure.choices, default=Structure.BASIS)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)  # custom structure
    cut = models.PositiveSmallIntegerField(null=True, blank=True)  # custom structure / override
    scoring = models.CharField(max_length=16, choices=Scoring.choices, default=Scoring.EISERNER_THRON)
    tiebreakers = models.CharField(max_length=16, choices=Tiebreakers.choices, default=Tiebreakers.EISERNER_THRON)
    players_per_match = models.PositiveSmallIntegerField(default=2)  # 2..MAX_TABLE, within the game's bounds
    round_days = models.PositiveSmallIntegerField(default=7)
    level = models.CharField(max_length=8, choices=Level.choices, default=Level.CASUAL)
    signup_deadline = models.DateTimeField(null=True, blank=True)
    season_end = models.DateTimeField(null=True, blank=True)  # leagues
    rated = models.BooleanField(default=True)  # read by the ratings app (see module docstring)
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  related_name="organized_tournaments")
    seed = models.BigIntegerField()  # never leaves the server
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    stage = models.CharField(max_length=10, default="swiss")  # swiss | knockout (current stage)
    # Resolved at the start from the structure table (or the custom values).
    swiss_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    cut_size = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="won_tournaments")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "-created_at"], name="tourn_status_created")]

    def __str__(self):
        return self.name

    @property
    def is_league(self) -> bool:
        return self.format == self.Format.LEAGUE

    @property
    def officials_may_play(self) -> bool:
        return self.level == self.Level.CASUAL


class Official(models.Model):
    class Role(models.TextChoices):
        HEAD_JUDGE = "head_judge", _("head judge")
        JUDGE = "judge", _("judge")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="officials")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_offices")
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.JUDGE)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="official_unique")]


class Entrant(models.Model):
    """A registered player. ``choices`` are the seat choices fixed at sign-up (Der Orden: the
    deck), locked for the whole tournament and passed to every match. ``bot`` set: a bot
    plays this entrant's seats (its user is a bot account, see services.add_bot)."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("playing")
        DROPPED = "dropped", _("dropped")
        DISQUALIFIED = "disqualified", _("disqualified")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    bot = models.CharField(max_length=20, blank=True)
    choices = models.JSONField(default=dict)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    dropped_stage = models.CharField(max_length=10, blank=True)
    dropped_round = models.PositiveSmallIntegerField(default=0)  # last stage round taken part in
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="entrant_unique")]
        ordering = ["registered_at", "id"]


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()  # 1, 2, ... over the whole tournament
    stage = models.CharField(max_length=10, default="swiss")
    stage_round = models.PositiveSmallIntegerField()  # 1, 2, ... within the stage
    byes = models.JSONField(default=list)  # user ids
    unpaired_losses = models.JSONField(default=list)  # user ids (re-joined players)
    bracket = models.JSONField(null=True, blank=True)  # knockout: [{"match": n, "users": [...]}]
    deadline = models.DateTimeField()
    reminded = models.BooleanField(default=False)
    closed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique")]
        indexes = [models.Index(fields=["closed", "deadline"], name="round_open_deadline")]


class Table(models.Model):
    """One pairing of a round, played as one platform match. ``result`` is None until decided:
    ``{"placements": [user ids best first], "kind": "win" | "modified_win" | "loss" | ...,
    "ranks": {user id: rank}?, "source": "game" | "deadline" | "judge" | "walkover"}``."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    table = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField(default=0)  # knockout match number (#1, #2, ...)
    users = models.JSONField()  # user ids at this table
    match = models.OneToOneField("matches.Match", on_delete=models.PROTECT, related_name="tournament_table")
    result = models.JSONField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        ordering = ["table"]
        constraints = [models.UniqueConstraint(fields=["round", "table"], name="table_unique")]


class Sanction(models.Model):
    """A judge's decision about a player, with the reason, kept for the record. ``applied``:
    the platform carried it out (a game loss, a disqualification, Der Orden's "descend one
    rank" on the running match via ``Plugin.apply_penalty``); False: an instruction only."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("warning")
        DESCEND_RANK = "descend_rank", _("descend one rank")
        GAME_LOSS = "game_loss", _("game loss")
        # Mittelerde 26b: „… kann der Schiedsrichter dies mit Punktabzügen … bestrafen.“
        POINT_DEDUCTION = "point_deduction", _("point deduction")
        DISQUALIFICATION = "disqualification", _("disqualification")
        OTHER = "other", _("other")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sanctions")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_sanctions")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="sanctions")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    reason = models.CharField(max_length=500)
    applied = models.BooleanField(default=False)  # True: the platform carried it out
    points = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)  # point_deduction
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]


class ResultCorrection(models.Model):
    """A closed round's result changed afterwards by the organizer or a head judge: who, when,
    why, and the result before and after (the standings follow the new result; pairings made
    from the old one stand)."""
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="corrections")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=500)
    old = models.JSONField(null=True)
    new = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
