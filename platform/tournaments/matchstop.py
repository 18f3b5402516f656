"""Stopping a running match whose result the tournament has decided (a round's deadline, a
judge's ruling). The match services have no "abort" entry point, so this is the one place
outside matches/ that writes a match: it locks the row like the services do, marks the match
aborted so nobody can move any more, and pushes the change to open pages."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from matches import live
from matches.models import Match, Seat


def lock(match_id: int) -> Match:
    return Match.objects.select_for_update().get(pk=match_id)


def stop(match: Match) -> None:
    """``match`` must be locked (``lock``) inside the caller's transaction."""
    if match.status != Match.Status.ACTIVE:
        return
    match.status = Match.Status.ABORTED
    match.to_move = []
    match.finished_at = timezone.now()
    match.save(update_fields=["status", "to_move", "finished_at", "updated_at"])
    Seat.objects.filter(match=match, to_move=True).update(to_move=False, to_move_since=None)
    match_id, version = match.pk, match.version
    transaction.on_commit(lambda: live.publish(match_id, version))
