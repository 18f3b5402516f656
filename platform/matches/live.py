"""Pushes match updates to browsers over the Channels layer, after commit.

Every seat has its own group and spectators share a public one, so each frame carries only
the view that group may see; the view is computed once per seat, not once per socket.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

import orjson
from channels.layers import get_channel_layer
from django.core.serializers.json import DjangoJSONEncoder

logger = logging.getLogger(__name__)


_encoder = DjangoJSONEncoder()


def dumps(obj) -> str:
    """A frame's text. orjson: a move sends a view to every seat, and the standard encoder
    took five times as long (a 2 KB Alchemist frame: 17 µs against 3 µs; dict keys that are not strings become strings, as
    json.dumps makes them; other types as Django's encoder writes them)."""
    return orjson.dumps(obj, default=_encoder.default, option=orjson.OPT_NON_STR_KEYS).decode()


def seat_group(match_id: int, seat: int) -> str:
    return f"match.{match_id}.seat.{seat}"


def public_group(match_id: int) -> str:
    return f"match.{match_id}.public"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def _send_all(messages: list[tuple[str, dict]]) -> None:
    """Every frame of one change at once; the request does not wait for Redis (a hop to the
    server's loop per move was a third of a move's response time under load)."""
    from core.livesend import group_send_soon

    layer = get_channel_layer()
    if layer is None or not messages:
        return
    try:
        group_send_soon(layer, messages)
    except Exception:  # best effort: the move is committed; clients catch up by version
        logger.warning("pushes failed", exc_info=True)


@dataclass(frozen=True)
class Snapshot:
    """What the frames of one committed version need, taken in the transaction that made it
    (saves re-reading the match and its seats after the commit). Values, not the Match: a
    later change in the same transaction must not alter an earlier version's frames."""
    pk: int
    game: str
    players: int
    public: bool
    state: dict  # engines return new states; they never change one in place
    version: int
    status: str
    to_move: list
    outcome: dict | None
    seat_users: dict  # seat -> user id (human seats)

    @classmethod
    def of(cls, match, seats) -> "Snapshot":
        return cls(match.pk, match.game, match.players, match.public, match.state, match.version, match.status,
                   list(match.to_move), match.outcome, {s.seat: s.user_id for s in seats if s.user_id})


def publish(match_id: int, version: int, badge_seats: set[int] | None = None,
            known: Snapshot | None = None) -> None:
    """The new version's frames; "your turn" badges only to the players of ``badge_seats``
    (those whose turn began or ended; None: every player) — the others' counts are unchanged.
    ``known``: the version as committed; without it the match is read (and skipped if a newer
    version exists: that one publishes its own frames)."""
    from games import registry

    from .models import Match

    if known is not None:
        match, seat_users = known, known.seat_users
    else:
        match = Match.objects.filter(pk=match_id).only("id", "game", "state", "version", "status", "to_move",
                                                       "outcome", "public", "players").first()
        if match is None or match.version != version:
            return  # a newer change will publish its own frame
        seat_users = dict(match.seats.filter(user__isnull=False).values_list("seat", "user_id"))
    engine = registry.get(match.game).engine
    viewers = list(range(match.players)) + ([None] if match.public else [])
    messages = []
    for seat in viewers:
        frame = {"type": "match.update", "match": match.pk, "version": match.version,
                 "status": match.status, "to_move": match.to_move, "outcome": match.outcome,
                 "view": engine.view(match.state, seat)}
        text = dumps(frame)
        group = public_group(match_id) if seat is None else seat_group(match_id, seat)
        messages.append((group, {"type": "match.frame", "text": text}))
    # The seats' frames leave before the badges' query: the other players wait for them, and the
    # query's round trip had stood between the commit and every frame (the steady tail).
    _send_all(messages)
    # Each player's "your turn" badge: how many matches wait for them now.
    user_ids = [u for seat, u in sorted(seat_users.items()) if badge_seats is None or seat in badge_seats]
    counts = turn_counts(user_ids)
    _send_all([(user_group(user_id), {"type": "match.frame", "text": dumps(
        {"type": "turn", "match": match.pk, "count": counts.get(user_id, 0)})}) for user_id in user_ids])


def turn_counts(user_ids: list[int]) -> dict[int, int]:
    """user id -> active matches where that user is to move. Plain SQL: it runs after every
    move, and building the ORM's annotated join cost more CPU than the query itself."""
    if not user_ids:
        return {}
    from core import plainsql

    from .models import Match, Seat

    seat, match = Seat._meta.db_table, Match._meta.db_table
    marks = ", ".join(["%s"] * len(user_ids))
    with plainsql.cursor() as cursor:
        cursor.execute(f"SELECT s.user_id, COUNT(*) FROM {seat} s JOIN {match} m ON m.id = s.match_id "
                       f"WHERE s.user_id IN ({marks}) AND s.to_move AND m.status = %s GROUP BY s.user_id",
                       [*user_ids, Match.Status.ACTIVE])
        return {user_id: n for user_id, n in cursor.fetchall()}


def publish_chat(match_id: int, payload: dict, seats: int, public: bool) -> None:
    text = dumps({"type": "chat", "match": match_id, **payload})
    groups = [seat_group(match_id, s) for s in range(seats)] + ([public_group(match_id)] if public else [])
    _send_all([(group, {"type": "match.frame", "text": text}) for group in groups])
