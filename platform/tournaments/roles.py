"""Who is who in a tournament: organizer, head judge, judge, player, spectator."""
from __future__ import annotations

from .models import Entrant, Official, Tournament

ORGANIZER, HEAD_JUDGE, JUDGE, PLAYER, SPECTATOR = "organizer", "head_judge", "judge", "player", "spectator"


def roles_of(tournament: Tournament, user) -> set[str]:
    if user is None or not user.is_authenticated:
        return {SPECTATOR}
    roles = set()
    if tournament.organizer_id == user.id:
        roles.add(ORGANIZER)
    role = Official.objects.filter(tournament=tournament, user=user).values_list("role", flat=True).first()
    if role:
        roles.add(role)
    if Entrant.objects.filter(tournament=tournament, user=user).exists():
        roles.add(PLAYER)
    return roles or {SPECTATOR}


def is_official(tournament: Tournament, user) -> bool:
    """Organizer, head judge or judge: may set results and apply sanctions."""
    return bool(roles_of(tournament, user) & {ORGANIZER, HEAD_JUDGE, JUDGE})


def may_disqualify(tournament: Tournament, user) -> bool:
    """Organizer, head judges and judges (tournaments.md; Der Orden and Mittelerde 26b let
    the judge exclude a player)."""
    return is_official(tournament, user)


def may_correct(tournament: Tournament, user) -> bool:
    """Changing a closed round's result: organizer and head judges only."""
    return bool(roles_of(tournament, user) & {ORGANIZER, HEAD_JUDGE})
