from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")
    default_auto_field = "django.db.models.BigAutoField"
    header_templates = ["notifications/bell.html"]

    def ready(self):
        from config.celery import app

        from . import conf, receivers  # noqa: F401  (subscribes to matches and lobby)

        # Sends go to their own queue (`make worker` consumes it) so that a flood of mail never
        # waits behind bots, and bots never behind mail.
        routes = dict(app.conf.task_routes or {})
        routes.update({"notifications.tasks.deliver": {"queue": conf.QUEUE},
                       "notifications.tasks.send_digest": {"queue": conf.QUEUE}})
        app.conf.task_routes = routes
        app.conf.beat_schedule = {**(app.conf.beat_schedule or {}),
                                  "notifications-flush": {"task": "notifications.tasks.flush", "schedule": 60.0},
                                  "notifications-digests": {"task": "notifications.tasks.digests",
                                                            "schedule": 600.0}}
        from clocks.scheduler import register

        from .services import digests_due, flush

        register(flush)
        register(digests_due)
