"""Rematch in one click: POST /api/matches/{id}/rematch/ → 201
{"invitation": id}, a private invitation to the same people with the same game and options."""
import pytest
from rest_framework.test import APIClient

from clocks import invitation as clock_settings
from clocks.models import TimeControl
from lobby import services as lobby
from lobby.models import Invitation
from tests.platform.helpers import start_minigame
from tests.ratings.play import play_to_end, plays_only

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _finished(a, b, c, **kwargs):
    return play_to_end(start_minigame(a, b, c, options={"short": True}, move_days=5, **kwargs), plays_only)


def test_rematch_invites_the_same_people_with_the_same_settings(make_user, celery_worker):
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    inv = lobby.create_invitation(a, game="kartenduell", players=3, options={"short": True}, move_days=5,
                                  substitute_hours=6)
    clock_settings.save(inv, {"clock_mode": "bank", "clock_bank_hours": 50, "clock_increment_hours": 7,
                              "clock_policy": "forfeit"})
    lobby.join(inv.pk, b)
    inv = lobby.join(inv.pk, c)
    match = play_to_end(inv.match, plays_only)

    answer = _client(b).post(f"/api/matches/{match.pk}/rematch/", {}, format="json")
    assert answer.status_code == 201, answer.content
    assert set(answer.json()) == {"invitation"}
    rematch = Invitation.objects.get(pk=answer.json()["invitation"])
    assert (rematch.game, rematch.players, rematch.options, rematch.move_days, rematch.substitute_hours) == \
        ("kartenduell", 3, {"short": True}, 5, 6)
    assert rematch.private and rematch.host == b and rematch.rematch_of_id == match.pk
    assert sorted(u.username for u in rematch.invitees.all()) == ["a", "c"]
    assert list(rematch.entries.values_list("user__username", flat=True)) == ["b"]  # the clicker is seated
    tc = TimeControl.objects.get(invitation=rematch)
    assert (tc.mode, tc.bank_hours, tc.increment_hours, tc.policy) == ("bank", 50, 7, "forfeit")
    from notifications.models import Notification

    assert sorted(Notification.objects.filter(kind="invited").values_list("user__username", flat=True)) == ["a", "c"]

    # A second click, by anyone of them, finds the same invitation.
    again = _client(c).post(f"/api/matches/{match.pk}/rematch/", {}, format="json")
    assert again.status_code == 200 and again.json() == {"invitation": rematch.pk}
    assert Invitation.objects.filter(rematch_of=match).count() == 1
    # Accepting works as for any private invitation: the match starts with the same people.
    lobby.join(rematch.pk, a)
    rematch = lobby.join(rematch.pk, c)
    assert rematch.status == "started" and sorted(s.user.username for s in rematch.match.seats.all()) == ["a", "b", "c"]


def test_rematch_with_bots_keeps_the_bots(make_user, celery_worker):
    a, b = make_user("a"), make_user("b")
    match = play_to_end(start_minigame(a, b, players=3, bots=["random-legal"]), plays_only)
    answer = _client(a).post(f"/api/matches/{match.pk}/rematch/", {}, format="json")
    rematch = Invitation.objects.get(pk=answer.json()["invitation"])
    assert sorted(e.bot for e in rematch.entries.all()) == ["", "random-legal"]
    assert [u.username for u in rematch.invitees.all()] == ["b"]


def test_a_cancelled_rematch_can_be_offered_again(make_user, celery_worker):
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    match = _finished(a, b, c)
    first = _client(a).post(f"/api/matches/{match.pk}/rematch/", {}, format="json").json()["invitation"]
    lobby.cancel(first, a)
    second = _client(b).post(f"/api/matches/{match.pk}/rematch/", {}, format="json")
    assert second.status_code == 201 and second.json()["invitation"] != first


def test_rematch_refusals(make_user, celery_worker):
    a, b, c, stranger = make_user("a"), make_user("b"), make_user("c"), make_user("stranger")
    running = start_minigame(a, b, c)
    answer = _client(a).post(f"/api/matches/{running.pk}/rematch/", {}, format="json")
    assert answer.status_code == 409 and answer.json()["error"] == "invitation_error"
    match = _finished(a, b, c)
    assert _client(stranger).post(f"/api/matches/{match.pk}/rematch/", {}, format="json").status_code == 403
    assert _client().post(f"/api/matches/{match.pk}/rematch/", {}, format="json").status_code in (401, 403)
    private = play_to_end(start_minigame(a, b, private=True, invitees=["b"]), plays_only)
    hidden = _client(stranger).post(f"/api/matches/{private.pk}/rematch/", {}, format="json")
    assert hidden.status_code == 404 and "no such match" in hidden.json()["detail"]
    bad = _client(a).post(f"/api/matches/{match.pk}/rematch/", {"choices": {"nope": 1}}, format="json")
    assert bad.status_code == 400 and set(bad.json()) >= {"error", "detail"}
    assert not Invitation.objects.filter(rematch_of__isnull=False).exists()  # nothing half-made


def test_rematch_leaves_out_a_deleted_player_and_says_so(make_user, celery_worker):
    """A deleted account is not invited again: the button says that seat is open to
    anyone, and the rematch is a public invitation naming only the players still here."""
    from django.test import Client

    from privacy.erase import erase

    a, b, c = make_user("a"), make_user("b"), make_user("c")
    match = _finished(a, b, c)
    page = Client()
    page.force_login(a)
    html = page.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="rematch"' in html and 'id="rematch-gone"' not in html
    erase(c)
    html = page.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="rematch-gone"' in html and "that seat is open to anyone" in html
    answer = _client(a).post(f"/api/matches/{match.pk}/rematch/", {}, format="json")
    assert answer.status_code == 201, answer.content
    rematch = Invitation.objects.get(pk=answer.json()["invitation"])
    assert not rematch.private and [u.username for u in rematch.invitees.all()] == ["b"]
    lobby.join(rematch.pk, b)
    stranger = make_user("d")
    rematch = lobby.join(rematch.pk, stranger)  # the deleted player's seat, taken by anyone
    assert rematch.status == "started"
