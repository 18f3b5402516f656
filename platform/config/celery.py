"""The Celery app. With REDIS_URL set it talks to a real broker and worker; without it
(the embedded default) tasks run eagerly in-process (see settings.CELERY_TASK_ALWAYS_EAGER)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("spieltisch")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
