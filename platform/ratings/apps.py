from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"
    nav_items = [("rankings", _("Rankings"))]

    def ready(self):
        from . import receivers

        receivers.connect()
