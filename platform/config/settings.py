"""Settings, read from environment variables.

Two modes:
- embedded default (no variables set): SQLite, in-memory channel layer, Celery tasks run
  eagerly in-process, mail to the console, local-memory cache;
- real services: DATABASE_URL (PostgreSQL), REDIS_URL (Channels layer, Celery broker, cache),
  EMAIL_URL-style SMTP settings (EMAIL_HOST, EMAIL_PORT), a real Celery worker and beat.
"""
import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from config.discovery import CORE_APPS, feature_apps
from config.secretkey import secret_key
from games.registry import template_dirs as game_template_dirs

ROOT = Path(__file__).resolve().parents[2]
BASE_DIR = ROOT


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.lower() in ("1", "true", "yes", "on")


DEBUG = env_bool("DJANGO_DEBUG", False)
# Tools for game authors (the hot-seat table at /author/hotseat/, platform/authoring): on with
# DEBUG, never on a public site (each page answers 404 when off).
GAME_AUTHOR_TOOLS = env_bool("GAME_AUTHOR_TOOLS", DEBUG)
# DJANGO_SECRET_KEY; without it a production (real services, DEBUG off) refuses to start
# (config/secretkey.py: development, tests and the embedded default get keys of their own).
SECRET_KEY = secret_key(debug=DEBUG, database_url=os.environ.get("DATABASE_URL", ""),
                        sqlite_path=os.environ.get("SQLITE_PATH", str(ROOT / "var" / "db.sqlite3")))
ALLOWED_HOSTS = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o]
# Links in mails and pushes. Unset: the address the site is served on (web/served.py).
SITE_URL = os.environ.get("SITE_URL", "")
SITE_NAME = "Spieltisch"  # the name in the header, the tab title and the mails
# Who runs the site: the Impressum (§ 5 DDG), the privacy notice (Art. 13 GDPR) and the terms
# name them (frontend/legal_views.py). An operator fills these in; each page names a required
# one that is still empty.
SITE_OPERATOR = {key: os.environ.get(f"SITE_OPERATOR_{key.upper()}", "") for key in (
    "name",            # person or company
    "address",         # postal address; "\n" or "|" separate lines
    "email",
    "phone",
    "representative",  # responsible for the content (§ 18 Abs. 2 MStV), or the legal representative
    "register",        # commercial register and number, if any
    "vat_id",          # USt-IdNr., if any
    "hosting",         # the hosting provider (processor, Art. 28 GDPR)
)}

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served as static files (no CDN)
    "channels",
    "django_htmx",
    *CORE_APPS,
    *feature_apps(),  # platform/<app>/ and games/<slug>/web/ (config/discovery.py)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "web.guard.RequestGuardMiddleware",  # NUL, deep JSON, 413; the API's one error shape
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "matches.presence.PresenceMiddleware",  # the user is present (notifications wait)
    "web.ratelimit.RateLimitMiddleware",  # log-in, sign-up, reset, game-page moves
    "accounts.middleware.UserPreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "accounts.guests.GuestGateMiddleware",  # a guest account reaches the guided match only
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "web.csp.SiteCSPMiddleware",  # Content-Security-Policy (web/csp.py)
    "django_htmx.middleware.HtmxMiddleware",
    "web.served.ServedOriginMiddleware",  # SITE_URL unset: links follow the served address
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": game_template_dirs(),
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.template.context_processors.i18n",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
        "frontend.context_processors.site",
    ]},
}]

# --- database ---------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # A connection per request, closed at its end (CONN_MAX_AGE 0, as Django advises under
    # ASGI): every request runs in a thread of its own, and persistent per-thread connections
    # piled up to "too many clients" under load. DB_CONN_MAX_AGE > 0 suits gunicorn's
    # long-lived threads (`make web`); DB_POOL=1 gives each process a pool (below).
    _max_age = int(os.environ.get("DB_CONN_MAX_AGE", "0"))  # > 0 only where threads live long (gunicorn)
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=_max_age,
                                                  conn_health_checks=_max_age > 0)}
    if "postgresql" in DATABASES["default"]["ENGINE"]:
        # No JIT: it pays for long analytic queries, not for ours. A batch's clock read (a few
        # joins, an estimate of thousands of rows on small tables) crossed jit_above_cost and
        # spent 20 ms compiling for 60 rows that take 0.2 ms (EXPLAIN ANALYZE).
        DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c jit=off"
    if env_bool("DB_POOL", False):
        # Opt-in (the bench stack and production): a psycopg pool per server process, shared
        # by its request threads. Health checks make Django give the pool a `check` that tests
        # a connection when it is handed out: a PostgreSQL restart costs a reconnect, not the
        # pool's long wait seen before (docs/performance.md, "Measured choices").
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # pooling requires it
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 2, "max_size": int(os.environ.get("DB_POOL_MAX", "20")), "timeout": 10, "max_idle": 120}
else:
    DATABASES = {"default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("SQLITE_PATH", str(ROOT / "var" / "db.sqlite3")),
        # IMMEDIATE: writers take the lock at BEGIN, so concurrent moves queue instead of
        # failing with "database is locked" half-way through a transaction.
        "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE",
                    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
        # A file, not memory: tests with several threads (concurrent moves) need one shared database.
        "TEST": {"NAME": os.environ.get("SQLITE_TEST_PATH", str(ROOT / "var" / "test-db.sqlite3"))},
    }}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- redis: channels, celery, cache ------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {"default": {
        # Pub/sub: one subscribed connection per process fans frames out to its sockets (a change's
        # round trip: docs/performance.md, "Measured choices"). CHANNEL_LAYER=lists: the list-based
        # layer (a blocking pop per message; messages wait in Redis for a consumer that is away).
        "BACKEND": ("core.channel_layer.BlockingPoolRedisChannelLayer" if os.environ.get("CHANNEL_LAYER") == "lists"
                    else "core.channel_layer.PubSubChannelLayer"),
        # redis-py's async pool defaults to 100 connections; more sockets than that fail.
        # redis-py 8 reads with a 5 s socket timeout, the very time channels-redis blocks in
        # BZPOPMIN: under load the read times out and the socket's consumer dies. Give it room.
        # health_check_interval: a connection idle that long is pinged before use, so one that
        # died with a Redis restart is replaced instead of failing a socket's connect.
        "CONFIG": {"hosts": [{"address": REDIS_URL, "max_connections": 1000, "socket_timeout": 15,
                              "socket_connect_timeout": 2, "health_check_interval": 10}], "capacity": 1500},
    }}
    CACHES = {"default": {"BACKEND": "core.cache.ResilientRedisCache", "LOCATION": REDIS_URL}}  # fails open
    CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# A move's follow-up (clocks, "your turn" notifications, ratings) runs in the worker on the real
# services, so the move's response does not wait for it (matches.followups.announce_change).
MATCH_FOLLOW_UP_IN_WORKER = env_bool("MATCH_FOLLOW_UP_IN_WORKER", bool(REDIS_URL))
# Orders keep their secrets (matches/orders.py, docs/security.md "What orders reveal"): an ordered
# answer comes a random ORDER_ANSWER_DELAY seconds ("min,max") after its decision opened, never in
# the request that opened it. "0,0": in that request's transaction (tests, benchmarks).
ORDER_ANSWER_DELAY = tuple(float(x) for x in os.environ.get("ORDER_ANSWER_DELAY", "20,90").split(",")[:2])
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-task leaves the task for the next one
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Worker processes keep their database connection (config/celery.py); the fixup closes it
# only every this many tasks.
CELERY_DB_REUSE_MAX = int(os.environ.get("CELERY_DB_REUSE_MAX", "1000"))
# With Redis, a task whose worker died unacknowledged is handed out again only after the
# visibility timeout (kombu's default: 1 hour). Longer than any countdown we use (≤ 10 min).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "900")),
    "unacked_restore_interval": 10, "unacked_restore_throttle": 1,
    # A half-open connection (Redis gone without a reset) is noticed and replaced.
    "socket_timeout": 30, "socket_connect_timeout": 5, "socket_keepalive": True, "health_check_interval": 25}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A broker restart must not stop the worker: reconnect for as long as it takes
# (Celery's default gives up after 100 tries, and the worker exits), and cancel the running
# late-acknowledged tasks on a lost connection instead of acknowledging them later on the dead
# connection's channel (Celery 6's default; they are redelivered, our tasks are idempotent).
# config/celery.py turns kombu's AttributeError on such a channel into the connection error it is.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_TIMEZONE = "UTC"

# --- mail ---------------------------------------------------------------------------------
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
else:
    # The embedded default writes mails to files under var/mail/ (one per send), not the
    # console: `make run` printed 37 demo mails (2,200 lines) before the site's address.
    EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
    EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Spieltisch <noreply@localhost>")

# --- auth, i18n ------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-games"
LOGOUT_REDIRECT_URL = "lobby"

LANGUAGE_CODE = "en"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [ROOT / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]  # 24-hour English times (config/formats/en)
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- static -------------------------------------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = ROOT / "var" / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
# A game package's own static files (games/<slug>/static/, e.g. its board's stylesheet: the
# Content-Security-Policy admits no <style> element), found like its templates.
STATICFILES_DIRS = sorted(str(p) for p in (ROOT / "games").glob("*/static") if p.is_dir())

# --- API ----------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "api.authentication.TokenAuthentication",  # one plain statement per request
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": None,
    "DEFAULT_THROTTLE_RATES": {"login": "20/min", "actions": "600/min"},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Spieltisch API",
    "DESCRIPTION": "Asynchronous board games: games, invitations, matches, actions, logs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- production hardening (DJANGO_DEBUG=0 and HTTPS) ------------------------------------------
# Content-Security-Policy on every response (web/csp.py: no inline script anywhere).
from web.csp import POLICY as SECURE_CSP  # noqa: E402,F401
# Request bodies: the API's largest (a deck, an invitation) is a few kB; beyond this: 413.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
SECURE_HTTPS = env_bool("DJANGO_SECURE", False)
if SECURE_HTTPS:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 31536000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Websockets per server process (matches/socketcaps.py): one signed-in user's, and anonymous
# ones from one address; the bench stack raises them (all its clients are 127.0.0.1).
SOCKETS_PER_USER = int(os.environ.get("SOCKETS_PER_USER", "40"))
ANONYMOUS_SOCKETS_PER_ADDRESS = int(os.environ.get("ANONYMOUS_SOCKETS_PER_ADDRESS", "50"))

# --- operations (platform/ops/, deploy/README.md) ---------------------------------------------
# /metrics answers these addresses, or a request with "Authorization: Bearer <METRICS_TOKEN>".
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
METRICS_ALLOWED_IPS = tuple(os.environ.get("METRICS_ALLOWED_IPS", "127.0.0.1,::1").split(","))
# /health/ fails (503) past these: the newest worker heartbeat, the oldest pending follow-up.
HEALTH_WORKER_MAX_AGE_S = float(os.environ.get("HEALTH_WORKER_MAX_AGE_S", "30"))
HEALTH_FOLLOWUP_MAX_LAG_S = float(os.environ.get("HEALTH_FOLLOWUP_MAX_LAG_S", "60"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
