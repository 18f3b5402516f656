from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CommunityConfig(AppConfig):
    name = "community"
    verbose_name = "Community"
    default_auto_field = "django.db.models.BigAutoField"
    nav_items = [("watch", _("Watch"))]
    header_templates = ["community/header_link.html"]
