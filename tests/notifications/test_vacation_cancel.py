"""Cancelling a vacation from the settings page: a posted id that is not a number gets a clear,
translated message (never Python's "invalid literal for int()")."""
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from clocks import services as clocks

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, expected", [
    ("en", "Choose one of your vacations to cancel."),
    ("de", "Wähle einen deiner Urlaube aus, um ihn zu streichen."),
])
@pytest.mark.parametrize("posted", ["abc", "", "12abc", "٣", "9" * 40])
def test_a_non_numeric_vacation_id_gets_a_clear_message(make_user, language, expected, posted):
    anna = make_user("anna")
    anna.profile.language = language
    anna.profile.save()
    clocks.take_vacation(anna, timezone.now() + timedelta(days=10), 3)
    client = Client()
    client.force_login(anna)
    r = client.post("/notifications/settings/", {"form": "cancel-vacation", "vacation": posted}, follow=True)
    page = r.content.decode()
    assert r.status_code == 200 and expected in page
    assert "invalid literal" not in page and "int()" not in page
    assert anna.vacations.count() == 1
