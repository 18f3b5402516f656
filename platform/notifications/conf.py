"""Settings of notifications, from Django settings or the environment."""
import os
from pathlib import Path

from django.conf import settings


def get(name: str, default=""):
    value = getattr(settings, name, None)
    if value is None:
        value = os.environ.get(name, default)
    return value


QUEUE = "notifications"  # Celery queue of every send (`make worker` consumes it)
MAX_ATTEMPTS = 6
STUCK_MINUTES = 5  # a PENDING delivery older than this is re-enqueued by the flush
VAPID_FILE = Path(get("VAPID_PRIVATE_KEY_FILE", "") or Path(settings.BASE_DIR) / "var" / "vapid_private.pem")
VAPID_SUBJECT = get("VAPID_SUBJECT", "mailto:admin@localhost")
PUSH_TTL = 24 * 3600


def site_url() -> str:
    from web.served import site_url as served

    return served()
