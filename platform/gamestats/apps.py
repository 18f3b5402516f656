from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamestatsConfig(AppConfig):
    name = "gamestats"
    verbose_name = "Game statistics"
    default_auto_field = "django.db.models.BigAutoField"
    nav_items = [("stats", _("Statistics"))]

    def ready(self):
        from . import receivers

        receivers.connect()
