import os

from config import paths  # noqa: F401

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()

from config.warmup import freeze_heap, import_urls  # noqa: E402

import_urls()
freeze_heap()
