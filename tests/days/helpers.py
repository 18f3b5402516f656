"""Matches with clocks for the "playing over days" tests."""
from django.test import Client

from lobby import services as lobby
from matches import services as match_services


def start(users, move_days: int = 3, **clock):
    """A test-game match of ``users`` with a time control (``clock``: clocks.invitation fields)."""
    from clocks.invitation import save

    invitation = lobby.create_invitation(users[0], game="kartenduell", players=len(users), move_days=move_days)
    if clock:
        save(invitation, clock)
    for u in users[1:]:
        lobby.join(invitation.pk, u)
    invitation.refresh_from_db()
    return invitation.match


def to_move(match):
    match.refresh_from_db()
    return match.seats.select_related("user").get(seat=match.to_move[0]).user if match.to_move else None


def move(match, user=None):
    match.refresh_from_db()
    user = user or to_move(match)
    seat = match.seats.get(user=user).seat
    action = match_services.plugin_for(match).engine.legal_actions(match.state, seat)[0]
    match_services.submit_action(match.pk, user, action, match.version)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client
