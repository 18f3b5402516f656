"""Ratings per game (openskill mu/sigma), their history, and the one-per-match record that
makes rating a finished match idempotent."""
from django.conf import settings
from django.db import models


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=40)
    mu = models.FloatField()
    sigma = models.FloatField()
    shown = models.FloatField(db_index=True)  # skill.display(mu, sigma), kept for ordering
    games = models.PositiveIntegerField(default=0)  # rated games
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_user_game")]
        indexes = [models.Index(fields=["game", "-shown"], name="rating_game_shown")]


class RatedMatch(models.Model):
    """Exists once per finished match that was considered: a replayed finish finds it and
    does nothing. ``rated`` False records why a match did not count (``reason``)."""

    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, primary_key=True,
                                 related_name="rated")
    game = models.CharField(max_length=40)
    rated = models.BooleanField(default=True)
    reason = models.CharField(max_length=40, blank=True)
    at = models.DateTimeField(auto_now_add=True)


class RatingChange(models.Model):
    """One player's rating before and after one match: the history chart's points."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=40)
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    shown_before = models.FloatField()
    shown_after = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="ratingchange_match_user")]
        indexes = [models.Index(fields=["user", "game", "at"], name="ratingchange_user_game_at")]
        ordering = ["at", "id"]
