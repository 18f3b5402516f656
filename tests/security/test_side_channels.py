"""Who may undo, and what a stranger learns about a private match.

- A resigned player's seat is played on by a bot; the player must not take back the bot's
  moves (and so steer it): undo checks who made the move, not only its seat.
- A stranger's move/undo/resign on a private match answers exactly as on a match that does
  not exist (status and message), and /invitations/<id>/status/ names a private match only to
  its players.
"""
import pytest
from django.test import Client

from matches import services
from matches.errors import MatchError, UndoRefused
from matches.models import LogEntry, Match
from tests.platform.helpers import seat_of, start_minigame, to_move_user

pytestmark = pytest.mark.django_db


def test_resigned_player_cannot_undo_the_bots_move(make_user, monkeypatch):
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    match = start_minigame(a, b, c)
    resigner = to_move_user(match)  # resigns on their turn: the bot moves next, in their seat
    services.resign(match.pk, resigner)
    # The bot plays a card (a draw would be refused anyway: it reveals one).
    monkeypatch.setattr(services, "bot_action", lambda plugin, name, state, seat, rng: {
        "type": "play", "card": state["hands"][seat][0]})
    assert services.play_bots(match.pk) >= 1
    match.refresh_from_db()
    bot_move = LogEntry.objects.filter(match=match, kind=LogEntry.Kind.ACTION).order_by("seq").first()
    assert bot_move.seat == seat_of(match, resigner) and not bot_move.reveals
    last = LogEntry.objects.filter(match=match).order_by("-seq").first()
    if last.pk == bot_move.pk:  # nobody acted after the bot yet: the old check let the undo through
        with pytest.raises(UndoRefused):
            services.undo(match.pk, resigner, match.version)
    match.refresh_from_db()
    assert not LogEntry.objects.filter(match=match, kind=LogEntry.Kind.UNDO).exists()
    assert last.pk == bot_move.pk, "the test needs the bot's move to be the last one"


def refusal(call):
    try:
        call()
    except MatchError as exc:
        return exc.status, exc.code, exc.message
    return None


def test_strangers_move_on_a_private_match_answers_like_a_missing_match(make_user):
    a, b, stranger = make_user("a"), make_user("b"), make_user("stranger")
    match = start_minigame(a, b, private=True, invitees=["b"])
    services.submit_action(match.pk, to_move_user(match), {"type": "draw"}, 0)  # version 1 now
    missing = 10 ** 9
    for version in (0, 1, 2, None):
        assert refusal(lambda: services.submit_action(match.pk, stranger, {"type": "draw"}, version)) == \
            refusal(lambda: services.submit_action(missing, stranger, {"type": "draw"}, version))
        assert refusal(lambda: services.undo(match.pk, stranger, version)) == \
            refusal(lambda: services.undo(missing, stranger, version))
    assert refusal(lambda: services.resign(match.pk, stranger)) == refusal(lambda: services.resign(missing, stranger))
    # ... and over HTTP: the same status and body.
    api = Client()
    api.force_login(stranger)
    for path, body in (("actions", {"action": {"type": "draw"}, "version": 1}), ("undo", {"version": 1}),
                       ("resign", {})):
        here = api.post(f"/api/matches/{match.pk}/{path}/", body, content_type="application/json")
        gone = api.post(f"/api/matches/{missing}/{path}/", body, content_type="application/json")
        assert (here.status_code, here.json()) == (gone.status_code, gone.json()), path
    # Finished: still no "this match is over" for a stranger.
    services.resign(match.pk, a)
    assert Match.objects.get(pk=match.pk).status == "finished"
    assert refusal(lambda: services.resign(match.pk, stranger)) == refusal(lambda: services.resign(missing, stranger))


def test_invitation_status_names_a_private_match_only_to_its_players(make_user):
    a, b, stranger = make_user("a"), make_user("b"), make_user("stranger")
    match = start_minigame(a, b, private=True, invitees=["b"])
    invitation_id = match.invitation.pk if hasattr(match, "invitation") else \
        __import__("lobby.models", fromlist=["Invitation"]).Invitation.objects.get(match=match).pk
    url = f"/invitations/{invitation_id}/status/"
    for who in (None, stranger):
        client = Client()
        if who:
            client.force_login(who)
        r = client.get(url)
        assert r.status_code == 204 and "HX-Redirect" not in r, who
        assert str(match.pk) not in r.content.decode()
    player = Client()
    player.force_login(b)
    r = player.get(url)
    assert r.status_code == 200 and r["HX-Redirect"] == f"/matches/{match.pk}/"


# --- pages and invitations answer a stranger's private thing like a missing one
def same_answer(here, gone, here_id, gone_id) -> bool:
    """Same status and body (the id itself may be echoed, e.g. in a path; CSRF tokens are
    masked afresh on every response)."""
    import re

    def plain(r, pk):
        return re.sub(rb'(X-CSRFToken": "|csrfmiddlewaretoken" value=")[^"]+', rb"\1T", r.content).replace(
            f"/{pk}/".encode(), b"/ID/")
    return here.status_code == gone.status_code and plain(here, here_id) == plain(gone, gone_id)


def test_a_private_match_page_post_answers_like_a_missing_one(make_user):
    a, b, stranger = make_user("a"), make_user("b"), make_user("stranger")
    match = start_minigame(a, b, private=True, invitees=["b"])
    missing = 10 ** 9
    client = Client()
    client.force_login(stranger)
    for verb, body in (("act", {"type": "draw", "version": "0"}), ("undo", {"version": "0"}), ("resign", {})):
        here = client.post(f"/matches/{match.pk}/{verb}/", body)
        gone = client.post(f"/matches/{missing}/{verb}/", body)
        assert here.status_code == 404 and same_answer(here, gone, match.pk, missing), (verb, here.status_code)
    assert LogEntry.objects.filter(match=match).count() == 0


def test_a_private_invitation_answers_like_a_missing_one(make_user):
    from lobby import services as lobby

    host, anna, stranger = make_user("host"), make_user("anna"), make_user("carl")
    inv = lobby.create_invitation(host, game="kartenduell", players=3, private=True, invitees=["anna"])
    missing = 10 ** 9
    client = Client()
    client.force_login(stranger)
    for verb in ("join", "leave", "decline", "cancel"):
        here = client.post(f"/api/invitations/{inv.pk}/{verb}/", {}, content_type="application/json")
        gone = client.post(f"/api/invitations/{missing}/{verb}/", {}, content_type="application/json")
        assert here.status_code == 404 and (here.status_code, here.json()) == (gone.status_code, gone.json()), verb
        here, gone = client.post(f"/invitations/{inv.pk}/{verb}/"), client.post(f"/invitations/{missing}/{verb}/")
        assert here.status_code == 404 and same_answer(here, gone, inv.pk, missing), verb
    assert inv.entries.count() == 1
