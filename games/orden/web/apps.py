from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OrdenWebConfig(AppConfig):
    """Der Orden's Django part: saved decks and the deck builder. The rules stay in games/orden."""
    name = "games.orden.web"
    label = "orden_web"
    verbose_name = "Der Orden: decks"
    default_auto_field = "django.db.models.BigAutoField"
    nav_items = [("orden-decks", _("Decks"))]
    # The person's own rows: erased with the account, listed in its export (privacy/).
    personal_data = {"SavedDeck": ("owner",)}

    def ready(self):
        # The plugin is pure Python; it learns about saved decks from here instead of importing Django.
        from games.orden.plugin import PLUGIN

        from .decksource import SavedDecks

        PLUGIN.deck_source = SavedDecks()
