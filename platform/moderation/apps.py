from django.apps import AppConfig


class ModerationConfig(AppConfig):
    """Reports of players, chat lines and matches; the admin's queue and its sanctions."""
    name = "moderation"
    verbose_name = "Moderation"
    default_auto_field = "django.db.models.BigAutoField"
