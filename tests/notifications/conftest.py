import pytest
from django.conf import settings as django_settings

from tests.notifications.helpers import NotificationWorker, PushEndpoint, SmtpServer, purge_notifications_queue


@pytest.fixture(scope="module")
def smtp_server():
    server = SmtpServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def notification_worker(smtp_server, django_db_setup, django_db_blocker):
    """Real services: a worker on the notifications queue sending to the test SMTP server.
    Embedded default: None (tasks run in-process; the ``mail`` fixture points them at it)."""
    if not django_settings.REDIS_URL:
        yield None
        return
    purge_notifications_queue()
    worker = NotificationWorker(smtp_server.env).start()
    yield worker
    worker.stop()


@pytest.fixture
def mail(smtp_server, notification_worker, settings):
    """The SMTP server's sink, empty; in-process sends (embedded default) go to it too."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp_server.port
    smtp_server.sink.clear()
    return smtp_server.sink


@pytest.fixture
def push_endpoint():
    endpoint = PushEndpoint()
    yield endpoint
    endpoint.stop()


@pytest.fixture(autouse=True)
def _settle(request):
    yield
    from tests.notifications.helpers import wait_workers_idle

    if "transactional_db" in request.fixturenames or request.node.get_closest_marker("django_db"):
        wait_workers_idle()
