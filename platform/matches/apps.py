from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Matches"

    def ready(self):
        from .tasks import register_schedule

        register_schedule()
        from django.apps import apps

        if apps.is_installed("clocks"):  # the embedded default's periodic thread (no beat there)
            from clocks.scheduler import register

            from .progress import sweep

            register(sweep)
