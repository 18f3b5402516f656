"""A one-line name is one line. CR/LF, other control characters and the
Unicode line separators are refused with a form error (pages) or a 400 naming the field (API),
and nothing is stored (web/oneline.py)."""
import pytest
from django.test import Client

from accounts.models import Profile
from games.orden.web.models import SavedDeck
from lobby.models import Invitation
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
BROKEN = ["Cup\r\nBcc: victim@example.org", "a\nb", "tab\there", "line\u2028sep", "nul-ish\x1b[31m"]


@pytest.fixture
def client(make_user):
    c = Client()
    c.force_login(make_user("nora"))
    return c


@pytest.mark.parametrize("name", BROKEN)
def test_api_refuses_names_of_several_lines(client, name):
    cases = [("/api/tournaments/", {"game": "alchemist", "name": name}, "name", Tournament),
             ("/api/invitations/", {"game": "alchemist", "players": 2, "comment": name}, "comment", Invitation),
             ("/api/orden/decks/", {"name": name, "pfad": [], "cards": []}, "name", SavedDeck)]
    for url, body, field, model in cases:
        r = client.post(url, body, content_type="application/json")
        assert r.status_code == 400 and field in r.json().get("fields", {}), (url, r.content)
        assert "one line" in str(r.json()["fields"][field])
        assert not model.objects.exists()


@pytest.mark.parametrize("name", BROKEN[:2])
def test_forms_refuse_names_of_several_lines(client, name):
    r = client.post("/accounts/profile/", {"display_name": name, "language": "en", "timezone": "UTC",
                                           "email": "nora@example.org"})
    assert r.status_code == 200 and b"one line" in r.content
    assert Profile.objects.get(user__username="nora").display_name == ""
    r = client.post("/tournaments/new/", {"name": name, "game": "alchemist", "format": "swiss", "structure": "basis"})
    assert r.status_code == 200 and b"one line" in r.content and not Tournament.objects.exists()
    r = client.post("/orden/decks/new/", {"name": name})
    assert r.status_code == 200 and b"one line" in r.content and not SavedDeck.objects.exists()


def test_one_line_names_still_pass(client):
    r = client.post("/api/tournaments/", {"game": "alchemist", "name": "Große Runde — Frühjahr 2027 ✨"},
                    content_type="application/json")
    assert r.status_code == 201, r.content
