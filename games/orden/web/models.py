from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class SavedDeck(models.Model):
    """A player's own Der Orden deck: Pfad (rank cards top to bottom) + Nachziehstapel (card
    numbers, repeated as often as the deck holds them). Always valid: services.save validates."""
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="orden_decks")
    name = models.CharField(_("name"), max_length=60)
    pfad = models.JSONField(default=list)
    cards = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="orden_deck_owner_name")]

    def __str__(self):
        return self.name

    @property
    def deck(self) -> dict:
        return {"pfad": list(self.pfad), "cards": list(self.cards)}
