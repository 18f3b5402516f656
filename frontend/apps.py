from django.apps import AppConfig


class FrontendConfig(AppConfig):
    name = "frontend"
    verbose_name = "Web pages"

    def ready(self):
        # The game page's live part, pushed over the page's own match socket (matches/livepart.py).
        from matches import livepart

        from .live_push import render_part

        livepart.register(render_part)
