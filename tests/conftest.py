"""Test set-up shared by every test: the platform's own test game is registered beside the
real games, so platform tests do not depend on any one game's rules."""
import pytest

import os

from games import registry
from tests.support.minigame import PLUGIN as MINI

registry.plugins()[MINI.meta.slug] = MINI

# The notification tests' local push service listens on loopback; production refuses such
# endpoints (notifications/pushguard.py, tested with this off). Set before the worker starts.
os.environ.setdefault("PUSH_ALLOW_LOOPBACK", "1")
# Tests make invitations, chat lines, tournaments and decks by the dozen, and user ids repeat
# across test databases while the counters live on in Redis: the per-user quotas are tested
# at their real values in tests/security/test_quotas.py, and high elsewhere (also in the
# servers and workers the suite starts, which read the environment).
# Links in mails name one fixed site (web/served.py would take whatever address a test
# server was last reached on, a per-run port); the served-origin tests set SITE_URL="" themselves.
os.environ.setdefault("SITE_URL", "http://127.0.0.1:8000")
os.environ.setdefault("RATE_LIMITS", "invitation-user=100000,chat-user=100000,tournament-user=100000,"
                                     "deck-user=100000")


# Tests of pure code: the engines, the tournament logic and the conformance suite over every
# engine. They touch no database, cache, channel layer or broker, so the real-services pass of
# .ci/test-suite leaves them to the first pass (`-m "not pure"`): running them twice proves
# nothing and cost ~15 minutes of the CI budget.
# Each game's own tests (tests/games/<package>/) are pure: one folder per package under games/.
TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
GAMES_DIR = os.path.join(os.path.dirname(TESTS_DIR), "games")
PURE_DIRS = (*(f"games/{name}/" for name in sorted(os.listdir(GAMES_DIR))
               if os.path.isfile(os.path.join(GAMES_DIR, name, "__init__.py"))),
             "tournaments/logic/", "conformance/")


# Browser tests of how pages look (fit on a phone, axe in both themes, layout, screenshots): what
# they check comes from the templates and styles, not from the services behind them, so the
# real-services pass leaves them to the first pass too (`-m "not pure and not looks"`). Browser
# tests of live updates, moves and notifications run in both passes.
LOOKS_FILES = ("browser/test_fit_and_a11y.py", "browser/test_themes_a11y.py", "browser/test_table_layout.py",
               "browser/test_stats_page.py", "browser/test_csp.py", "browser/test_deck_builder_bar.py",
               "browser/test_tournament_sanctions_shot.py", "browser/test_first_hour.py", "browser/test_hotseat.py")


def pytest_collection_modifyitems(config, items):
    for item in items:
        rel = os.path.relpath(str(item.path), TESTS_DIR).replace(os.sep, "/")
        if rel.startswith(PURE_DIRS):
            item.add_marker(pytest.mark.pure)
        if rel in LOOKS_FILES:
            item.add_marker(pytest.mark.looks)
        if item.get_closest_marker("realservices") and not os.environ.get("REDIS_URL"):
            item.add_marker(pytest.mark.skip(reason="needs the real services (REDIS_URL and DATABASE_URL set)"))


@pytest.fixture(autouse=True)
def _no_dns(request, monkeypatch):
    """No test looks a name up on the network: push endpoints resolve through a stub
    (tests/security/test_push_endpoints.py gives it the addresses it needs)."""
    if not request.config.pluginmanager.has_plugin("django"):
        yield
        return
    try:
        from notifications import pushguard
    except ImportError:  # the notifications app is optional
        yield
        return

    def stub(host):
        raise OSError(f"no DNS in tests ({host})")

    monkeypatch.setattr(pushguard, "resolve", stub)
    yield


@pytest.fixture(autouse=True)
def _confirmed_addresses(request):
    """Users made in tests have confirmed their e-mail address (as most real users have), so
    the notification tests get their mail. Tests of the confirmation itself (tests/accounts/)
    are marked ``unconfirmed_mail`` and see new addresses as unconfirmed, as the site does."""
    if not request.config.pluginmanager.has_plugin("django") or request.node.get_closest_marker("unconfirmed_mail"):
        yield
        return
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_save

    def confirm(sender, instance, created, raw=False, **kwargs):
        if created and not raw and instance.email:
            from accounts.models import Profile

            Profile.objects.filter(user=instance).update(verified_email=instance.email)
            if "profile" in instance._state.fields_cache:
                instance.profile.verified_email = instance.email

    post_save.connect(confirm, sender=get_user_model(), dispatch_uid="tests-confirmed-addresses")
    yield
    post_save.disconnect(sender=get_user_model(), dispatch_uid="tests-confirmed-addresses")


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, password: str = "pw-Secret-123", **extra):
        return django_user_model.objects.create_user(username=username, password=password,
                                                     email=f"{username}@example.org", **extra)
    return make


@pytest.fixture(autouse=True)
def _fast_passwords(request):
    # Real hashing is deliberately slow; tests create many users. Engine tests also run
    # without pytest-django (-p no:django), where there are no settings to change.
    if not request.config.pluginmanager.has_plugin("django"):
        yield
        return
    settings = request.getfixturevalue("settings")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # In-process tests see a move's follow-up (clocks, notifications) at once; the worker path
    # is tested where it matters (tests/platform/test_follow_up.py) and by every live-site test.
    settings.MATCH_FOLLOW_UP_IN_WORKER = False
    # Orders answer in the step that opened the decision (the delay that keeps them secret is
    # tested where it matters: tests/security/test_orders_secrets.py).
    settings.ORDER_ANSWER_DELAY = (0, 0)
    # A request leaves its language active in the thread (LocaleMiddleware does not undo it)
    # and the services word refusals in the active language: every test starts in English.
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    # Each test gets its own channel layer: a Redis layer's receive lock and pools belong to
    # the event loop that used them, and every async_to_sync call of a test makes a new one.
    from channels.layers import channel_layers

    channel_layers.backends.clear()


def wait_for(predicate, timeout: float = 20.0, interval: float = 0.05):
    """Polls ``predicate`` until it is truthy (work done by a real Celery worker takes a moment;
    with eager tasks it is true at once). Fails the test on timeout."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"condition not met within {timeout}s")
        time.sleep(interval)


@pytest.fixture
def celery_worker(_celery_worker_process):
    """The worker for one test; afterwards wait until it is idle, so that a task the test set
    off (a follow-up, a mail, a bot move) does not touch the database while it is flushed."""
    yield _celery_worker_process
    if _celery_worker_process is not None:
        from tests.support.worker import wait_idle

        wait_idle(timeout=60)


@pytest.fixture(scope="session")
def _celery_worker_process(django_db_setup, django_db_blocker):
    """On the real-services path: a real Celery worker process on Redis, using the test
    database. On the embedded default tasks run eagerly and no worker is needed."""
    from tests.support.worker import start_worker

    proc = start_worker()
    yield proc
    if proc is not None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except Exception:
            proc.kill()
        _wait_for_other_sessions_to_end(django_db_blocker)


def _wait_for_other_sessions_to_end(django_db_blocker, timeout: float = 10.0) -> None:
    """The worker's pool processes keep a database connection (config/celery.py); PostgreSQL
    ends their sessions a moment after they exit. Dropping the test database before that
    fails with "being accessed by other users"."""
    import time

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + timeout
    with django_db_blocker.unblock():
        while time.monotonic() < deadline:
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                               "AND pid <> pg_backend_pid()")
                if cursor.fetchone()[0] == 0:
                    return
            time.sleep(0.1)
