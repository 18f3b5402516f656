from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClocksConfig(AppConfig):
    name = "clocks"
    verbose_name = _("Clocks")
    default_auto_field = "django.db.models.BigAutoField"
    invitation_hooks = "clocks.invitation"  # time-control fields of the invitation form and API

    def ready(self):
        from config.celery import app

        from . import conf, receivers  # noqa: F401  (subscribes to matches.signals)
        from .scheduler import register
        from .services import sweep

        register(sweep)

        app.conf.beat_schedule = {**(app.conf.beat_schedule or {}), "clocks-sweep": {
            "task": "clocks.tasks.sweep", "schedule": float(conf.SWEEP_SECONDS)}}
        if conf.IN_PROCESS:
            from .scheduler import start_thread

            start_thread()
