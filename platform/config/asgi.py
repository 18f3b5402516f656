"""ASGI entry point: HTTP through Django, websockets through Channels.

Serve with ``daphne config.asgi:application`` (or uvicorn) from the repository root with
``platform`` on PYTHONPATH; ``config.paths`` does that for servers started otherwise.
"""
import os

from config import paths  # noqa: F401  (puts platform/ and the root on sys.path)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from web import daphne_forms  # noqa: E402

daphne_forms.patch()  # under daphne: malformed form bodies reach Django (and its error shape)

from core.warmup import SOCKET_SERVER_GC, freeze_heap, import_urls, load_games  # noqa: E402

import_urls()
load_games()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from matches.routing import websocket_urlpatterns  # noqa: E402

from web.wsrefuse import refuse_unrouted  # noqa: E402

if os.environ.get("BENCH_FLOOR") == "1":  # the benchmark's bare move (bench/floor.py); never on a site
    from bench.floor import websocket_urlpatterns as floor_routes  # noqa: E402

    websocket_urlpatterns = floor_routes + websocket_urlpatterns

application = ProtocolTypeRouter({
    "http": django_asgi_app,
    # Unknown socket paths are refused (403 at the handshake), not a 500 with a traceback.
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(refuse_unrouted(websocket_urlpatterns)))),
})

freeze_heap(SOCKET_SERVER_GC)  # last: everything above is loaded
