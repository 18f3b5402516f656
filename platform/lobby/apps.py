from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby"

    def ready(self):
        from . import receivers  # noqa: F401  (substitute offers follow matches.signals.seat_left)
