import pytest


@pytest.fixture(autouse=True)
def _settle():
    yield
    from tests.notifications.helpers import wait_workers_idle

    wait_workers_idle()  # no task may run while the test database is flushed
