"""Settings that work: the header's language switch sticks for a signed-in user;
date inputs carry ISO values in German too; empty states say so; the invitation form marks
the fields of each time control; text limits are shown; an empty chat message gets an answer
in the chat itself; a refusal's flash message shows at once, not on some later page."""
import re

import pytest
from django.test import Client
from django.utils import timezone

from clocks.models import PlayerRecord, TimeControl
from lobby import services as lobby
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _german(user):
    user.profile.language = "de"
    user.profile.save(update_fields=["language"])


def test_language_switch_persists_for_a_signed_in_user(make_user):
    anna = make_user("anna")
    client = _client(anna)
    assert "Log out" in client.get("/lobby/").content.decode()
    r = client.post("/i18n/setlang/", {"language": "de", "next": "/lobby/"})
    assert r.status_code == 302 and r["Location"] == "/lobby/"
    anna.profile.refresh_from_db()
    assert anna.profile.language == "de"
    assert "Abmelden" in client.get("/lobby/").content.decode()
    # A new session (another browser) starts in German too: the profile holds it.
    assert "Abmelden" in _client(anna).get("/lobby/").content.decode()
    client.post("/i18n/setlang/", {"language": "en", "next": "/lobby/"})
    assert "Log out" in client.get("/lobby/").content.decode()
    # Nonsense is ignored; logged out, the switch still works by cookie alone.
    client.post("/i18n/setlang/", {"language": "xx", "next": "/lobby/"})
    anna.profile.refresh_from_db()
    assert anna.profile.language == "en"
    anonymous = Client()
    anonymous.post("/i18n/setlang/", {"language": "de", "next": "/lobby/"})
    assert "Anmelden" in anonymous.get("/lobby/").content.decode()


def test_vacation_date_is_iso_in_german_and_a_german_post_books_it(make_user):
    anna = make_user("anna")
    _german(anna)
    client = _client(anna)
    page = client.get("/notifications/settings/").content.decode()
    # "Today" in the player's time zone (the page's), not the server's: they differ around midnight.
    import zoneinfo

    today = timezone.localdate(timezone=zoneinfo.ZoneInfo(anna.profile.timezone)).isoformat()
    assert re.search(rf'<input type="date" name="start" value="{today}"', page), "not an ISO value"
    r = client.post("/notifications/settings/", {"form": "vacation", "start": today, "days": "2"}, follow=True)
    assert "Urlaub" in r.content.decode() and anna.vacations.count() == 1


def test_invitation_form_marks_fields_of_each_time_control(make_user):
    page = _client(make_user("anna")).get("/invitations/new/kartenduell/").content.decode()
    assert re.search(r'name="move_days"[^>]*data-clock-mode="days"|data-clock-mode="days"[^>]*name="move_days"', page)
    for name in ("clock_bank_hours", "clock_increment_hours"):
        assert re.search(rf'data-clock-mode="bank"[^>]*name="{name}"|name="{name}"[^>]*data-clock-mode="bank"', page)
    assert "frontend/forms.js" in page and "<script>" not in page  # a file, no inline script
    # "Days per move" follows the time-control choice; no-JS readers get a hint.
    assert page.index('name="clock_mode"') < page.index('name="move_days"')
    assert "Only with a time bank." in page
    assert 'maxlength="200"' in page and "At most 200 characters." in page


def test_time_bank_invitation_ignores_the_hidden_days_field(make_user):
    anna = make_user("anna")
    r = _client(anna).post("/invitations/new/kartenduell/", {
        "players": 2, "move_days": 3, "clock_mode": "bank", "clock_bank_hours": 10, "clock_increment_hours": 2,
        "clock_policy": "bot"})
    assert r.status_code == 302
    tc = TimeControl.objects.get(invitation__host=anna)
    assert (tc.mode, tc.bank_hours, tc.increment_hours) == ("bank", 10, 2)


@pytest.mark.django_db(transaction=True)  # the clocks start after commit
def test_clocks_of_new_players_say_so(make_user):
    from clocks import invitation as clock_settings

    anna, bert = make_user("anna"), make_user("bert")
    inv = lobby.create_invitation(anna, game="kartenduell", players=2)
    clock_settings.save(inv, {})  # days per move, as the form makes it
    inv = lobby.join(inv.pk, bert)
    match = inv.match
    page = _client(anna).get(f"/matches/{match.pk}/").content.decode()
    clocks = page[page.index('id="clocks"'):]
    clocks = clocks[:clocks.index("</section>")]
    assert "0.0 h" not in clocks and "0 timeouts in 0 games" not in clocks
    assert "no finished games with a clock yet" in clocks
    assert "not to move, the clock stands" in clocks  # the waiting seat's line is not a bare "name:"
    assert not re.search(r"(anna|bert):\s*</li>", clocks)
    PlayerRecord.objects.create(user=anna, games=3, timeouts=0, moves=9, recent=[40, 50, 60])
    clocks = _client(anna).get(f"/matches/{match.pk}/").content.decode()
    assert "usually moves within under a minute" in clocks and "0.0 h" not in clocks


def test_empty_chat_message_is_answered_in_the_chat_itself(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    client = _client(anna)
    r = client.post(f"/matches/{match.pk}/chat/", {"text": "   "}, HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 200 and 'id="chat-error"' in html and "1 to 500 characters" in html
    assert "At most 500 characters." in html
    # ...and it does not come back as a stale flash message on the next page.
    assert "1 to 500 characters" not in client.get("/my-games/").content.decode()
    # Without htmx the match page shows it once.
    r = client.post(f"/matches/{match.pk}/chat/", {"text": ""}, follow=True)
    assert "1 to 500 characters" in r.content.decode()
    assert "1 to 500 characters" not in client.get("/my-games/").content.decode()


def test_private_refusal_is_shown_at_once_not_on_a_later_page(make_user):
    host, anna, carl = make_user("host"), make_user("anna"), make_user("carl")
    inv = lobby.create_invitation(host, game="kartenduell", players=3, private=True, invitees=["anna"])
    client = _client(carl)
    # A private invitation a stranger may not see answers like a missing one (404),
    # and no message is left behind to pop up on a later page.
    r = client.post(f"/invitations/{inv.pk}/join/")
    assert r.status_code == 404
    assert client.post("/invitations/999999999/join/").status_code == 404
    assert "private" not in client.get("/my-games/").content.decode()


def test_my_games_empty_states(make_user):
    page = _client(make_user("neu")).get("/my-games/").content.decode()
    assert "You have no games yet." in page and "No open invitations to you." in page
