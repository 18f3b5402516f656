from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GuideConfig(AppConfig):
    """A first visit: the landing page, the help page and a guided first match against a bot
    for each game, with a hint at each step."""
    name = "guide"
    verbose_name = "Guide"
    default_auto_field = "django.db.models.BigAutoField"
    nav_items = [("help", _("Help"))]
    table_context = "guide.table.context"

    def ready(self):
        from .tasks import register_schedule

        register_schedule()
