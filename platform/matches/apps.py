from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Matches"

    def ready(self):
        from . import followups, signals, tasks

        tasks.register_schedule()
        # The writer (services) tells the modules that run it through signals (see signals.py).
        signals.change_committed.connect(followups.announce_change, dispatch_uid="matches.follow-up")
        signals.bots_due.connect(tasks.queue_bots, dispatch_uid="matches.queue-bots")
        from django.apps import apps

        if apps.is_installed("clocks"):  # the embedded default's periodic thread (no beat there)
            from clocks.scheduler import register

            from .progress import sweep

            register(sweep)
