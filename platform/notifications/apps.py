from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")
    default_auto_field = "django.db.models.BigAutoField"
    header_templates = ["notifications/bell.html"]

    def ready(self):
        from config.celery import app

        from . import conf, receivers, signals, tasks  # noqa: F401  (receivers: subscribes to matches and lobby)

        # The modules that make sends due ask the tasks for them (signals.py).
        signals.sends_due.connect(tasks.queue_sends, dispatch_uid="notifications.queue-sends")
        signals.release_due.connect(tasks.queue_release, dispatch_uid="notifications.queue-release")

        # Sends go to their own queue (`make worker` consumes it) so that a flood of mail never
        # waits behind bots, and bots never behind mail.
        routes = dict(app.conf.task_routes or {})
        routes.update({"notifications.tasks.deliver": {"queue": conf.QUEUE},
                       "notifications.tasks.deliver_many": {"queue": conf.QUEUE},
                       "notifications.tasks.send_digest": {"queue": conf.QUEUE},
                       "notifications.tasks.release": {"queue": conf.QUEUE}})
        app.conf.task_routes = routes
        app.conf.beat_schedule = {**(app.conf.beat_schedule or {}),
                                  "notifications-flush": {"task": "notifications.tasks.flush", "schedule": 60.0},
                                  "notifications-digests": {"task": "notifications.tasks.digests",
                                                            "schedule": 600.0}}
        from celery.signals import task_postrun, task_prerun

        from clocks.scheduler import register

        # A worker task's sends are published together when it ends (outbox.start_collecting);
        # in-process (eager) tasks send at once, as before.
        task_prerun.connect(_collect_sends, weak=False, dispatch_uid="notifications-collect")
        task_postrun.connect(_publish_sends, weak=False, dispatch_uid="notifications-publish")

        from .services import flush

        register(flush)
        register(tasks.digests_due)


def _collect_sends(task=None, **_):
    from . import outbox

    if task is not None and not task.request.is_eager:
        outbox.start_collecting()


def _publish_sends(task=None, **_):
    from . import outbox

    if task is not None and not task.request.is_eager:
        outbox.publish_collected()
