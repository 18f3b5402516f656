from django.apps import AppConfig


class AuthoringConfig(AppConfig):
    """Tools for game authors on a development site (``settings.GAME_AUTHOR_TOOLS``, on with
    DEBUG): the hot-seat table, where one person plays every seat of a match."""
    name = "authoring"
    verbose_name = "Game authoring"
    default_auto_field = "django.db.models.BigAutoField"
