from django.conf import settings
from django.db import models


class GuidedMatch(models.Model):
    """A match started as a guided first match: its table shows the hints (guide/hints.py) to
    the learner. The match itself is an ordinary private match against a bot."""
    match = models.OneToOneField("matches.Match", primary_key=True, on_delete=models.CASCADE, related_name="+")
    learner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
