"""Small helpers for platform tests."""
from lobby import services as lobby
from matches.models import Match


def start_minigame(host, *others, players=None, **kwargs) -> Match:
    """An invitation of the test game filled by ``host`` and ``others``; returns its match."""
    invitation = lobby.create_invitation(host, game="kartenduell", players=players or 1 + len(others), **kwargs)
    for user in others:
        invitation = lobby.join(invitation.pk, user)
    invitation.refresh_from_db()
    return invitation.match


def seat_of(match: Match, user) -> int:
    return match.seats.get(user=user).seat


def to_move_user(match: Match):
    """The user to move now (None once the match is over; a bot seat's user is None too)."""
    match.refresh_from_db()
    if not match.to_move:
        return None
    return match.seats.get(seat=match.to_move[0]).user
