import os

from config import paths  # noqa: F401

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from django.core.wsgi import get_wsgi_application  # noqa: E402

from web.shedding import shed_late_api  # noqa: E402

application = shed_late_api(get_wsgi_application())

from core.warmup import freeze_heap, import_urls, load_games  # noqa: E402

import_urls()
load_games()
freeze_heap()
