"""Playing matches to the end through the real services (shared by the history tests)."""
from __future__ import annotations

from games import registry
from games.rng import Rng
from matches import services
from matches.models import Match
from tests.conftest import wait_for


def mover(match: Match):
    match.refresh_from_db()
    if match.status != Match.Status.ACTIVE or not match.to_move:
        return None, None
    seat = match.seats.select_related("user").get(seat=match.to_move[0])
    return (None, seat.seat) if seat.bot else (seat.user, seat.seat)


def play_to_end(match: Match, choose=None, seed: int = 1, on_move=None, limit: int = 2000) -> Match:
    """Each user to move submits ``choose(legal, rng)`` (default: a random legal action)."""
    plugin = registry.get(match.game)
    rng = Rng(seed)
    for _ in range(limit):
        user, seat = mover(match)
        if user is None and seat is not None:  # a bot's turn: the (eager or real) worker plays it
            version = match.version
            wait_for(lambda: Match.objects.filter(pk=match.pk).exclude(version=version).exists())
            continue
        if user is None:
            break
        legal = plugin.engine.legal_actions(match.state, seat)
        action = choose(legal, rng) if choose else rng.choice(legal)
        services.submit_action(match.pk, user, action, match.version)
        if on_move is not None:
            match.refresh_from_db()
            on_move(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def plays_only(legal, rng):
    """Kartenduell: only play cards, so the game is short and reveals nothing by chance."""
    plays = [a for a in legal if a["type"] == "play"]
    return rng.choice(plays or legal)


def start(game: str, users, **kwargs) -> Match:
    from django.db import transaction

    with transaction.atomic():
        return services.start_match(game=game, entrants=[{"user": u, "bot": "", "choices": {}} for u in users],
                                    options=kwargs.pop("options", {}), **kwargs)
