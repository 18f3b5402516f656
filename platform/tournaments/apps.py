from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments and leagues"
    default_auto_field = "django.db.models.BigAutoField"
    nav_items = [("tournaments", _("Tournaments"))]

    def ready(self):
        from . import receivers  # noqa: F401  (subscribes to matches.signals)
        from .tasks import register_schedule

        register_schedule()
