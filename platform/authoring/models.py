from django.conf import settings
from django.db import models


class HotSeat(models.Model):
    """A match whose every seat one author plays (the hot-seat table). Its seats belong to the
    author's stand-in users (``authoring.seats``), one per seat, so the match runs through the
    site's own services and pages exactly as a match of several people does."""

    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, primary_key=True,
                                 related_name="hotseat")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hotseats")
    created = models.DateTimeField(auto_now_add=True)
