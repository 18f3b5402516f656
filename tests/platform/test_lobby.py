import pytest

from tests.conftest import wait_for

from lobby import services as lobby
from lobby.errors import LobbyError
from lobby.models import Invitation
from lobby.queries import open_invitations
from matches.models import Match

pytestmark = pytest.mark.django_db


def test_create_seats_the_host_and_cleans_options(make_user):
    host = make_user("host")
    inv = lobby.create_invitation(host, game="kartenduell", players=3, options={"short": "true"}, move_days=2)
    assert inv.status == "open" and inv.seats_taken == 1 and inv.options == {"short": True}
    assert list(inv.entries.values_list("user__username", flat=True)) == ["host"]


@pytest.mark.parametrize("kwargs,message", [
    ({"game": "nope", "players": 2}, "no game called"),
    ({"game": "kartenduell", "players": 5}, "2 to 4 players"),
    ({"game": "kartenduell", "players": 2, "options": {"colour": 1}}, "Unknown option"),
    ({"game": "kartenduell", "players": 2, "options": {"short": "maybe"}}, "true or false"),
    ({"game": "kartenduell", "players": 2, "move_days": 0}, "Days per move"),
    ({"game": "kartenduell", "players": 2, "private": True}, "at least one invitee"),
    ({"game": "kartenduell", "players": 2, "private": True, "invitees": ["ghost"]}, "Unknown user"),
    ({"game": "kartenduell", "players": 2, "bots": ["skynet"]}, "Unknown bot"),
])
def test_bad_invitations_are_refused_clearly(make_user, kwargs, message):
    with pytest.raises(LobbyError) as err:
        lobby.create_invitation(make_user("host"), **kwargs)
    assert message in err.value.message
    assert not Invitation.objects.exists()


def test_match_starts_when_the_last_seat_fills(make_user):
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    inv = lobby.create_invitation(a, game="kartenduell", players=3)
    lobby.join(inv.pk, b)
    assert not Match.objects.exists()
    inv = lobby.join(inv.pk, c)
    assert inv.status == "started" and inv.match is not None
    match = inv.match
    assert sorted(s.user.username for s in match.seats.all()) == ["a", "b", "c"]
    assert match.version == 0 and len(match.to_move) == 1
    assert match.seats.get(seat=match.to_move[0]).to_move


def test_join_leave_cancel_rules(make_user):
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    inv = lobby.create_invitation(a, game="kartenduell", players=3)
    lobby.join(inv.pk, b)
    with pytest.raises(LobbyError, match="already joined"):
        lobby.join(inv.pk, b)
    with pytest.raises(LobbyError, match="host cannot leave"):
        lobby.leave(inv.pk, a)
    with pytest.raises(LobbyError, match="not joined"):
        lobby.leave(inv.pk, c)
    lobby.leave(inv.pk, b)
    assert Invitation.objects.get(pk=inv.pk).seats_taken == 1
    with pytest.raises(LobbyError, match="Only the host"):
        lobby.cancel(inv.pk, b)
    lobby.cancel(inv.pk, a)
    with pytest.raises(LobbyError, match="no longer open") as err:
        lobby.join(inv.pk, c)
    assert err.value.status == 409


def test_private_invitations(make_user):
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    inv = lobby.create_invitation(a, game="kartenduell", players=2, private=True, invitees=["b"])
    assert list(open_invitations(c)) == []
    assert list(open_invitations(None)) == []
    assert list(open_invitations(b)) == [inv]
    with pytest.raises(LobbyError) as err:
        lobby.join(inv.pk, c)
    assert err.value.status == 404  # as if missing
    assert lobby.join(inv.pk, b).status == "started"


def test_filters(make_user):
    a, b = make_user("a"), make_user("b")
    short = lobby.create_invitation(a, game="kartenduell", players=3, options={"short": True})
    long = lobby.create_invitation(b, game="kartenduell", players=2)
    assert list(open_invitations(None, options={"short": True})) == [short]
    assert list(open_invitations(None, players=2)) == [long]
    assert list(open_invitations(None, host="A")) == [short]
    assert set(open_invitations(None, game="kartenduell")) == {short, long}
    # Another game's option matches nothing; an option no game declares is refused.
    assert list(open_invitations(None, game="kartenduell", options={"no_schools": True})) == []
    with pytest.raises(LobbyError):
        open_invitations(None, options={"short__contains": "1"})


@pytest.mark.django_db(transaction=True)
def test_bots_fill_seats_and_play(make_user, celery_worker):
    """Bot moves run as Celery tasks after commit: eagerly on the embedded default, in the
    real worker process on the real-services path."""
    a = make_user("a")
    inv = lobby.create_invitation(a, game="kartenduell", players=3, bots=["random-legal", "random-legal"])
    match = inv.match
    assert match is not None

    def humans_turn():
        match.refresh_from_db()
        return match.seats.get(seat=match.to_move[0]).user == a

    from matches import services

    for _ in range(2):  # the human moves; both bots answer before it is the human's turn again
        wait_for(humans_turn)
        version = match.version
        seat = match.seats.get(user=a).seat
        action = {"type": "play", "card": match.state["hands"][seat][0]}
        services.submit_action(match.pk, a, action, version)
        wait_for(lambda: match.status == "finished" or (humans_turn() and match.version == version + 3))
    bot_seats = list(match.seats.exclude(bot="").values_list("seat", flat=True))
    assert match.log.filter(seat__in=bot_seats).count() >= 4
    if celery_worker is not None:  # the worker's after-commit work must end before the flush (deadlock)
        from config.celery import app

        wait_for(lambda: not any((app.control.inspect(timeout=0.5).active() or {"": [1]}).values()))


def test_seat_choices_are_validated_and_reach_the_game(make_user):
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    inv = lobby.create_invitation(a, game="kartenduell", players=3, choices={"emblem": "eagle"})
    with pytest.raises(LobbyError, match="must be one of: lion, eagle"):
        lobby.join(inv.pk, b, {"emblem": "dragon"})
    with pytest.raises(LobbyError, match="Unknown choice"):
        lobby.join(inv.pk, b, {"colour": "red"})
    lobby.join(inv.pk, b, {})  # omitted: the game's default
    match = lobby.join(inv.pk, c, {"emblem": "eagle"}).match
    by_user = {s.user.username: s.seat for s in match.seats.all()}
    assert match.state["emblems"][by_user["a"]] == "eagle"
    assert match.state["emblems"][by_user["b"]] == "lion"
    assert match.state["emblems"][by_user["c"]] == "eagle"
