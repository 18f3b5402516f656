"""`make run`'s demo data (manage.py seed_demo): known users, open invitations, matches in progress."""
import pytest
from django.core.management import call_command
from django.test import Client

from lobby.models import Invitation
from matches.models import Match

pytestmark = pytest.mark.django_db


def test_seed_demo_gives_a_site_to_try():
    call_command("seed_demo", stdout=open("/dev/null", "w"))
    client = Client()
    assert client.login(username="alice", password="spieltisch")
    assert Invitation.objects.filter(status="open", private=False).exists()
    active = Match.objects.filter(status="active", version__gt=0)
    assert active.filter(seats__user__username="alice").exists()
    assert client.get("/my-games/").status_code == 200
    assert client.get("/lobby/").content.decode().count("data-invitation=") >= 2
    match = active.filter(seats__user__username="alice").first()
    assert client.get(f"/matches/{match.pk}/").status_code == 200
    counts = (Match.objects.count(), Invitation.objects.count())
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # idempotent
    assert (Match.objects.count(), Invitation.objects.count()) == counts
