from django.db import models


class GameSummary(models.Model):
    """What the statistics need from one finished match, taken once from its final public
    view (everything is revealed at the end), so statistics pages never replay games."""

    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, primary_key=True,
                                 related_name="summary")
    game = models.CharField(max_length=40)
    players = models.PositiveSmallIntegerField()
    data = models.JSONField(default=dict)
    finished_at = models.DateTimeField(null=True)

    class Meta:
        indexes = [models.Index(fields=["game", "-finished_at"], name="summary_game_finished")]
