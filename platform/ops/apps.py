from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Operating the site: the health endpoint, Prometheus metrics, the worker's heartbeat and
    the socket servers' socket counts (deploy/README.md)."""

    name = "ops"
    verbose_name = "Operations"

    def ready(self):
        from celery.signals import worker_ready

        from config.celery import app

        from . import heartbeat

        # The worker's main process writes its heartbeat (not its pool processes: a pool process
        # busy with a long task would look like a dead worker).
        worker_ready.connect(heartbeat.start_on_worker, weak=False, dispatch_uid="ops-heartbeat")
        app.conf.beat_schedule = {**(app.conf.beat_schedule or {}),
                                  "ops-beat-heartbeat": {"task": "ops.tasks.beat_heartbeat", "schedule": 30.0}}
