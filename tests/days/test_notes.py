"""Private notes per match and seat: API, the table (saved as you type),
the player's own replay; nobody else ever reads them."""
import pytest

from matches.models import SeatNote
from tests.days.helpers import client_for, start
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db

PLAN = "Plan: keep the 7 for round three — ZEBRA-SECRET"


def test_notes_api_is_the_seats_own(make_user):
    anna, bert, eve = make_user("anna"), make_user("bert"), make_user("eve")
    match = start_minigame(anna, bert)
    url = f"/api/matches/{match.pk}/notes/"
    a, b = client_for(anna), client_for(bert)
    assert a.get(url).json() == {"text": ""}
    r = a.put(url, {"text": PLAN}, content_type="application/json")
    assert r.status_code == 200 and r.json() == {"text": PLAN}
    assert a.get(url).json() == {"text": PLAN}
    assert b.get(url).json() == {"text": ""}  # bert's own (empty) notes, not anna's
    b.put(url, {"text": "bert's"}, content_type="application/json")
    assert a.get(url).json() == {"text": PLAN}
    # A spectator of the public match, an anonymous client: no notes at all.
    r = client_for(eve).get(url)
    assert r.status_code == 403 and r.json()["error"] == "not_seated"
    assert client_for(eve).put(url, {"text": "x"}, content_type="application/json").status_code == 403
    assert SeatNote.objects.count() == 2


def test_notes_at_most_10000_characters(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    url = f"/api/matches/{match.pk}/notes/"
    a = client_for(anna)
    assert a.put(url, {"text": "x" * 10_000}, content_type="application/json").status_code == 200
    r = a.put(url, {"text": "y" * 10_001}, content_type="application/json")
    assert r.status_code == 400 and set(r.json()) >= {"error", "detail"}
    assert a.get(url).json()["text"] == "x" * 10_000  # nothing half-applied
    for bad in ({"text": 5}, {"note": "x"}, ["x"]):
        r = a.put(url, bad, content_type="application/json")
        assert r.status_code == 400 and "detail" in r.json(), bad


def test_table_saves_as_you_type_and_shows_only_own_notes(make_user):
    anna, bert, eve = make_user("anna"), make_user("bert"), make_user("eve")
    match = start_minigame(anna, bert)
    a = client_for(anna)
    page = a.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="notes-text"' in page and 'hx-trigger="input changed delay:800ms' in page
    r = a.post(f"/matches/{match.pk}/notes/", {"text": PLAN}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "Saved" in r.content.decode()
    r = a.post(f"/matches/{match.pk}/notes/", {"text": "z" * 10_001}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and 'role="alert"' in r.content.decode()
    assert SeatNote.objects.get().text == PLAN
    assert PLAN in a.get(f"/matches/{match.pk}/").content.decode()
    for other in (bert, eve):
        page = client_for(other).get(f"/matches/{match.pk}/").content.decode()
        assert "ZEBRA-SECRET" not in page
        assert "ZEBRA-SECRET" not in client_for(other).get(f"/matches/{match.pk}/live/").content.decode()
    # Not seated: the page has no notes form, and posting is refused without a change.
    assert 'id="notes-text"' not in client_for(eve).get(f"/matches/{match.pk}/").content.decode()
    r = client_for(eve).post(f"/matches/{match.pk}/notes/", {"text": "mine now"}, HTTP_HX_REQUEST="true")
    assert 'role="alert"' in r.content.decode() and SeatNote.objects.get().text == PLAN


def test_own_replay_shows_own_notes_only(make_user):
    from matches import services as match_services

    anna, bert, eve = make_user("anna"), make_user("bert"), make_user("eve")
    match = start(users=[anna, bert])
    client_for(anna).put(f"/api/matches/{match.pk}/notes/", {"text": PLAN}, content_type="application/json")
    match_services.resign(match.pk, bert)  # finished: anyone may replay through any seat's eyes
    for seat in ("public", "0", "1"):
        assert PLAN in client_for(anna).get(f"/matches/{match.pk}/replay/?seat={seat}").content.decode()
        for other in (bert, eve):
            assert "ZEBRA-SECRET" not in client_for(other).get(
                f"/matches/{match.pk}/replay/?seat={seat}").content.decode()
    for other in (bert, eve):
        assert "ZEBRA-SECRET" not in client_for(other).get(f"/api/matches/{match.pk}/export/").content.decode()
        assert "ZEBRA-SECRET" not in client_for(other).get(f"/api/matches/{match.pk}/").content.decode()
