"""Shared set-up for the tournament tests: users, a tournament of the platform's test game,
and ways to end matches (scripted by a judge, or by the rules)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone as tz

from matches import services as match_services
from matches.models import Match
from tournaments import services
from tournaments.models import Round, Table

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=tz.utc)


def make_tournament(organizer, players, *, game="kartenduell", **kwargs):
    data = dict(game=game, name="Test-Turnier", format="swiss", structure="custom", rounds=3)
    data.update(kwargs)
    t = services.create_tournament(organizer, **data)
    for p in players:
        services.register(t, p, now=T0)
    return t


def open_round(t) -> Round | None:
    return Round.objects.filter(tournament=t, closed=False).first()


def decide_open_round(t, judge, *, better=None, now=T0):
    """A judge sets every undecided table of the open round: the player with the lower
    ``better`` key (default: lower user id) wins."""
    rnd = open_round(t)
    key = better or (lambda uid: uid)
    for table in Table.objects.filter(round=rnd, result__isnull=True):
        services.set_result(t, judge, table.match_id, sorted(table.users, key=key), now=now)
    return rnd


def play_out(match_id: int) -> Match:
    """Finish a match of the test game by the rules: the player to move plays their first card."""
    from matches.models import Seat

    for _ in range(200):
        m = Match.objects.get(pk=match_id)
        if m.status != Match.Status.ACTIVE:
            return m
        seat = Seat.objects.get(match=m, seat=m.to_move[0])
        action = {"type": "play", "card": m.state["hands"][seat.seat][0]} if m.state["hands"][seat.seat] \
            else {"type": "draw"}
        match_services.submit_action(m.pk, seat.user, action, m.version)
    raise AssertionError("match did not end")


def later(days: float) -> datetime:
    return T0 + timedelta(days=days)


# --- a deck game for the tests: the platform's test game with a seat choice "deck" -----------
DECK_GAME = "deckduell"


def deck_game():
    """Context manager: registers a variant of the test game whose seat choice is ``deck``
    (each user owns decks "deck-<id>-a" and "deck-<id>-b"), as Der Orden's deck is."""
    import contextlib
    import dataclasses

    from games import registry
    from games.base import SeatChoice
    from tests.support.minigame import META, Engine, MiniPlugin

    class DeckEngine(Engine):
        meta = dataclasses.replace(META, slug=DECK_GAME, seat_choices=(SeatChoice("deck", "Deck", "Deck"),))

    class DeckPlugin(MiniPlugin):
        def seat_choice_values(self, key, user_id):
            return [(f"deck-{user_id}-a", "A"), (f"deck-{user_id}-b", "B")] if key == "deck" else []

    @contextlib.contextmanager
    def registered():
        registry.plugins()[DECK_GAME] = DeckPlugin(DeckEngine())
        try:
            yield
        finally:
            registry.plugins().pop(DECK_GAME, None)

    return registered()
