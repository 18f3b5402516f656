"""Business rules of matches: start, act, undo, resign, replay, bots.

One writer per match: every change runs in a transaction that locks the match row
(SELECT ... FOR UPDATE), checks the client's expected version, applies the engine, appends
to the log and rewrites the snapshot. Pushes and background jobs are scheduled with
``transaction.on_commit`` so nothing is announced that did not happen.

Direction: this writer is below the modules that run it (``followups``, ``tasks``, ``orders``):
it tells them through ``signals`` (``change_committed``, ``bots_due``) and hands ``_apply`` to
``orders_follow``, so it imports none of them.
"""
from __future__ import annotations

import contextvars
import hashlib
from dataclasses import dataclass
from datetime import timedelta
import logging
import secrets

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from core import plainsql
from games import registry
from games.base import IllegalAction, Plugin
from games.rng import Rng

from . import live, orders_follow, signals
from .errors import IllegalMove, MatchOver, NoSuchMatch, NotSeated, NotYourTurn, SeatTaken, StaleVersion, UndoRefused
from .models import LogEntry, Match, Seat

logger = logging.getLogger(__name__)

BOT_MOVE_LIMIT = 500  # moves per bot task; a longer all-bot match goes on in a new task
_in_bot_loop = contextvars.ContextVar("in_bot_loop", default=False)


def plugin_for(match: Match) -> Plugin:
    return registry.get(match.game)


# --- start ------------------------------------------------------------------------------------
def start_match(*, game: str, entrants: list[dict], options: dict, move_days: int = 3,
                public: bool = True, seed: int | None = None) -> Match:
    """Create and start a match. ``entrants``: one dict per player with ``user`` (or None),
    ``bot`` ('' for humans) and ``choices`` (already cleaned). Seats are drawn by lot; the
    engine draws the start player from the seed. Call inside a transaction."""
    plugin = registry.get(game)
    seed = secrets.randbits(63) if seed is None else seed
    order = list(entrants)
    Rng(seed ^ 0x5EA7).shuffle(order)  # seats by lot, reproducible from the seed
    choices = plugin.resolve_choices([e.get("choices") or {} for e in order])
    state = plugin.engine.setup(len(order), options, seed, choices)
    to_move = plugin.engine.to_move(state)
    now = timezone.now()
    match = Match.objects.create(
        game=game, engine_version=plugin.meta.engine_version, players=len(order), options=options,
        choices=choices, seed=seed, state=state, version=0, to_move=to_move,
        move_days=move_days, public=public)
    seats = Seat.objects.bulk_create([
        Seat(match=match, seat=i, user=e.get("user"), bot=e.get("bot") or "",
             to_move=i in to_move, to_move_since=now if i in to_move else None)
        for i, e in enumerate(order)])
    _after_change(match, previous_to_move=None, seats=seats)
    return match


# --- acting -------------------------------------------------------------------------------------
def _locked(match_id: int) -> Match:
    match = plainsql.fetch_one(Match, "id = %s", [match_id], lock=True)
    if match is None:
        raise NoSuchMatch(_no_such_match())
    return match


def _seat_of(match: Match, user, seats: list[Seat] | None = None) -> Seat:
    """The user's seat (from ``seats`` if the caller has loaded them). Asked before anything
    else about the match: to a stranger a private match answers exactly like a missing one
    (no version, no "over"), so a refusal does not confirm it exists."""
    seat = None
    if user is not None and user.is_authenticated:
        if seats is None:
            seat = Seat.objects.filter(match=match, user=user).first()
        else:
            seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        if not match.public:
            raise NoSuchMatch(_no_such_match())
        raise NotSeated(_("You do not play in this match."))
    return seat


def _no_such_match() -> str:  # translated when raised
    return _("There is no such match.")


def _check_version(match: Match, version) -> None:
    if match.status != Match.Status.ACTIVE:
        raise MatchOver(_("This match is over."))
    if version is None or isinstance(version, bool) or not isinstance(version, int):
        raise IllegalMove(_("Send the match version you acted on as an integer ('version')."))
    if version != match.version:
        raise StaleVersion(
            _("The match has changed (version %(current)s, you sent %(sent)s). Reload and try again.")
            % {"current": match.version, "sent": version},
            version=match.version)


@dataclass(frozen=True)
class Acted:
    """A committed move with the match and seats as it left them (an answer needs no re-read)."""
    entry: LogEntry
    match: Match
    seats: list[Seat]
    seat: Seat


def act(match_id: int, user, action, version, *, with_users: bool = True) -> Acted:
    """A player's move. Raises StaleVersion (409), NotSeated/NotYourTurn (403), IllegalMove (400).
    ``with_users``: the seats come with their users (the API's answer names them)."""
    if not isinstance(action, dict):
        raise IllegalMove(_("'action' must be a JSON object."))
    with transaction.atomic():
        # Every seat at once: the mover's check, the turn bookkeeping, the bot check and the
        # answer (user names) share it; read with the match's lock, one statement.
        match, seats = plainsql.fetch_locked_with(Match, match_id, Seat, "match", "user" if with_users else None)
        if match is None:
            raise NoSuchMatch(_no_such_match())
        if with_users:
            seats.sort(key=lambda s: s.seat)  # the answer lists them in seat order (Seat.Meta.ordering)
        seat = _seat_of(match, user, seats)  # first: a stranger learns nothing of the version
        _check_version(match, version)
        if seat.resigned:
            raise NotYourTurn(_("You have left this match."))
        entry = _apply(match, seat.seat, action, seats=seats)
    return Acted(entry, match, seats, seat)


def submit_action(match_id: int, user, action, version) -> LogEntry:
    """``act`` for callers that need only the log entry (the socket moves, the page)."""
    return act(match_id, user, action, version, with_users=False).entry


def _apply(match: Match, seat: int, action: dict, kind: str = LogEntry.Kind.ACTION,
           seats: list[Seat] | None = None, holder: Seat | None = None) -> LogEntry:
    plugin = plugin_for(match)
    if seat not in match.to_move:
        raise NotYourTurn(_("It is not your turn."))
    try:
        step = plugin.engine.apply(match.state, seat, action)
    except IllegalAction as exc:
        # The game gives its reason in both languages; the message follows the active one.
        reason = exc.reason_de if (translation.get_language() or "").startswith("de") else exc.reason
        raise IllegalMove(reason, reason_de=exc.reason_de) from None
    match.state = step.state
    # The log entry, the match and the seats whose turn changed: one statement (PostgreSQL).
    writes = plainsql.Writes()
    entry = _append(match, writes, kind=kind, seat=seat, action=action, events=step.events, reveals=step.reveals,
                    **_actor(match, seat, [holder] if holder is not None else seats))
    _refresh(match, plugin, seats, actor=seat if kind in (LogEntry.Kind.ACTION, LogEntry.Kind.UNDO) else None,
             writes=writes)
    return entry


def _actor(match: Match, seat: int, seats: list[Seat] | None = None, *, person: bool = False) -> dict:
    """Who acts for ``seat`` now, written on the log entry so that the log keeps naming them
    after a substitute takes the seat: its user, or the bot that plays it. ``person``: the
    seat's user whatever plays it (a resignation, a timeout: the person leaves)."""
    row = next((s for s in seats or [] if s.seat == seat), None)
    if row is not None:
        user_id, bot = row.user_id, row.bot
    else:
        user_id, bot = Seat.objects.filter(match_id=match.pk, seat=seat).values_list("user_id", "bot").first() \
            or (None, "")
    if person:
        return {"actor_id": user_id, "actor_bot": ""}
    return {"actor_id": None if bot else user_id, "actor_bot": bot or ""}


def _append(match: Match, writes: plainsql.Writes | None = None, **fields) -> LogEntry:
    match.version += 1
    entry = LogEntry(match=match, seq=match.version, **fields)
    (writes or plainsql).insert(entry)
    return entry


def _refresh(match: Match, plugin: Plugin, seats: list[Seat] | None = None, actor: int | None = None,
             writes: plainsql.Writes | None = None) -> None:
    """Recompute to_move/outcome from the snapshot, save, and schedule the pushes. ``seats``:
    the match's seats if the caller loaded them in this transaction (under the row lock);
    ``actor``: the seat whose action (or undo) made this version, None if no seat acted;
    ``writes``: where the caller collects this step's writes (sent here, before the pushes)."""
    engine = plugin.engine
    before = set(match.to_move)
    match.to_move = engine.to_move(match.state)
    outcome = engine.outcome(match.state)
    fields = ["state", "version", "to_move", "updated_at"]
    if seats is None:
        seats = list(match.seats.all())
    if outcome is not None:
        match.status = Match.Status.FINISHED
        match.outcome = _flag_forfeits(_with_resignations(outcome, match, seats), match)
        match.finished_at = timezone.now()
        fields += ["status", "outcome", "finished_at"]
    (writes or plainsql).update_fields(match, fields)
    _sync_seats(match, seats, before, writes)
    if writes is not None:
        writes.run()
    _after_change(match, previous_to_move=sorted(before), seats=seats, actor=actor)
    orders_follow.follow(match, plugin, seats, _apply)  # a seat handed a decision may have left orders for it


def _sync_seats(match: Match, seats: list[Seat], before: set[int], writes: plainsql.Writes | None = None) -> None:
    now = timezone.now()
    placements = {p["seat"]: p for p in (match.outcome or {}).get("placements", [])}
    changed = []
    for s in seats:
        to_move = s.seat in match.to_move and match.status == Match.Status.ACTIVE
        place = placements.get(s.seat, {})
        if to_move != s.to_move or (to_move and s.seat not in before) or place:
            s.to_move = to_move
            s.to_move_since = now if to_move else None
            if place:
                s.place, s.score = place.get("place"), place.get("score")
            changed.append(s)
    # One plain UPDATE for all of them (PostgreSQL; elsewhere one per seat): bulk_update's
    # CASE expressions cost more CPU to build than the statement itself.
    (writes or plainsql).update_each(changed, ("to_move", "to_move_since", "place", "score"))


def _with_resignations(outcome: dict, match: Match, seats: list[Seat]) -> dict:
    """Resigned seats are placed behind everyone who played on (later resigners ahead)."""
    resigned = [s.seat for s in seats if s.resigned]
    if not resigned:
        return outcome
    # Each resigned seat once, at its last departure (a substitute may have held it between).
    order = list(dict.fromkeys(reversed(
        [s for s in LogEntry.objects.filter(match=match, kind=LogEntry.Kind.RESIGN)
         .order_by("seq").values_list("seat", flat=True) if s in resigned])))[::-1]
    placements = outcome.get("placements", [])
    kept = [p for p in placements if p["seat"] not in resigned]
    ordered = sorted(kept, key=lambda p: p["place"])
    result, place, last_key = [], 0, None
    for i, p in enumerate(ordered):
        if p["place"] != last_key:
            place, last_key = i + 1, p["place"]
        result.append({**p, "place": place})
    for i, seat in enumerate(reversed(order)):  # the last to resign is placed best of them
        score = next((p.get("score") for p in placements if p["seat"] == seat), None)
        result.append({"seat": seat, "place": len(kept) + i + 1, "score": score, "resigned": True})
    return {**outcome, "placements": result}


def _after_change(match: Match, previous_to_move: list[int] | None, seats: list[Seat] | None = None,
                  actor: int | None = None) -> None:
    """After commit: the frames, the follow-up, the bots. ``seats`` (current, if the caller has
    them) saves the frames and the bot check their own queries. ``actor``: the seat whose action
    or undo made this version (None: no seat acted — a start, resignation, penalty, end)."""
    match_id, version, status, to_move = match.pk, match.version, match.status, list(match.to_move)
    # Whose "your turn" count changed: the seats whose turn began or ended (all if unknown).
    badges = None if previous_to_move is None else set(previous_to_move) ^ set(to_move)
    known = None if seats is None else live.Snapshot.of(match, seats)
    transaction.on_commit(lambda: live.publish(match_id, version, badges, known=known))
    # What the follow-up would otherwise read again (see signals.py): who acted, and the seats.
    hints = {"actor": actor, "game": match.game}
    match.change_hints = hints  # orders_follow.follow adds the seats its orders answer at once
    if seats is not None:
        hints["seats"] = [[s.seat, s.user_id, s.bot] for s in sorted(seats, key=lambda s: s.seat)]
    # followups.announce_change runs the follow-up (inline, or in the worker)
    transaction.on_commit(lambda: signals.change_committed.send(
        sender=Match, match_id=match_id, version=version, status=status, to_move=to_move,
        previous_to_move=previous_to_move, hints=hints))
    if seats is not None:
        bot_to_move = any(s.bot and s.seat in to_move for s in seats)
    else:
        bot_to_move = match.seats.filter(seat__in=to_move).exclude(bot="").exists()
    if not _in_bot_loop.get() and match.status == Match.Status.ACTIVE and bot_to_move:
        # tasks.queue_bots queues the play_bots task
        transaction.on_commit(lambda: signals.bots_due.send(sender=Match, match_id=match_id))


def send_change_signals(match_id, version, status, to_move, previous_to_move, hints: dict | None = None) -> None:
    """``hints`` (what the change already knew: ``actor``, ``seats``) go to the receivers as
    keyword arguments; without them (an older task) receivers read what they need."""
    send_changes([[match_id, version, status, to_move, previous_to_move, hints]])


def send_changes(batch: list[list]) -> int:
    """The signals of several committed changes (each item: ``send_change_signals``'s arguments):
    ``match_changes`` once for all of them, then each one's ``match_changed`` (and
    ``match_finished``) in order. Each receiver runs on its own; what fails is recorded and
    redone by the sweep (matches/progress.py). Returns how many changes went through."""
    from . import progress

    changes = []
    for match_id, version, status, to_move, previous_to_move, *rest in batch:
        hints = (rest[0] if rest else None) or {}  # a task of an older version has none
        changes.append(dict(match_id=match_id, version=version, status=status, to_move=to_move,
                            previous_to_move=previous_to_move, **hints))
    return progress.follow(changes)


# --- undo and resign -------------------------------------------------------------------------------
def undo(match_id: int, user, version) -> LogEntry:
    """Take back one's own last action while it revealed nothing and nobody acted since."""
    with transaction.atomic():
        match = _locked(match_id)
        seat = _seat_of(match, user)
        _check_version(match, version)
        last = LogEntry.objects.filter(match=match).order_by("-seq").first()
        if last is None or last.kind != LogEntry.Kind.ACTION or last.undone or last.seat != seat.seat:
            raise UndoRefused(_("Only your own last move can be taken back, and only before anyone else acts."))
        # Who made it, not only which seat: once a bot plays the seat (resigned, timed out) its
        # moves are not the player's, nor is a move the platform made for a missed deadline.
        if seat.resigned or seat.bot or any(e.get("type") == "deadline" for e in last.events or []
                                            if isinstance(e, dict)):
            raise UndoRefused(_("Only your own last move can be taken back, and only before anyone else acts."))
        if last.reveals:
            raise UndoRefused(_("This move is final: it revealed hidden information, used chance, or may not be taken back by the rules."))
        plugin = plugin_for(match)
        last.undone = True
        last.save(update_fields=["undone"])
        match.state = replay(match)
        entry = _append(match, kind=LogEntry.Kind.UNDO, seat=seat.seat, undoes=last.seq,
                        **_actor(match, seat.seat, [seat]))
        _refresh(match, plugin, actor=seat.seat)
        return entry


def resign(match_id: int, user) -> LogEntry:
    """Leave a match. With one player left it ends; otherwise a bot plays the seat on
    and the resigned player is placed last."""
    with transaction.atomic():
        match = _locked(match_id)
        seat = _seat_of(match, user)
        if match.status != Match.Status.ACTIVE:
            raise MatchOver(_("This match is over."))
        if seat.resigned:
            raise MatchOver(_("You have already left this match."))
        previous = list(match.to_move)
        seat.resigned = True
        seat.bot = _default_bot(plugin_for(match))
        seat.save(update_fields=["resigned", "bot"])
        entry = _append(match, kind=LogEntry.Kind.RESIGN, seat=seat.seat,
                        events=[{"type": "resigned", "seat": seat.seat}], **_actor(match, seat.seat, [seat], person=True))
        seats = list(match.seats.all())
        playing = [s for s in seats if not s.resigned]
        if len(playing) <= 1:
            placements = [{"seat": s.seat, "place": 1, "score": None} for s in playing]
            match.status = Match.Status.FINISHED
            match.outcome = _flag_forfeits(_with_resignations(
                {"placements": placements, "by_resignation": True}, match, seats), match)
            match.finished_at = timezone.now()
            match.to_move = []
            match.save(update_fields=["status", "outcome", "finished_at", "to_move", "version", "updated_at"])
            _sync_seats(match, seats, set())
            _after_change(match, previous_to_move=previous)
        else:
            match.save(update_fields=["version", "updated_at"])
            _after_change(match, previous_to_move=previous)
            _announce_seat_left(match, seat.seat, seat.user_id, "resigned")
        return entry


def _announce_seat_left(match: Match, seat: int, user_id: int | None, reason: str) -> None:
    """After commit: a person left a match that goes on (the lobby may offer the seat)."""
    if user_id is None:
        return
    match_id = match.pk
    transaction.on_commit(lambda: signals.seat_left.send(sender=Match, match_id=match_id, seat=seat,
                                                         user_id=user_id, reason=reason))


def forfeit(match_id: int, seat: int, reason: str = "timeout", *, keep_place: bool = False) -> LogEntry:
    """The platform takes a seat from its player (e.g. the clock ran out), without a request.

    keep_place=False: like ``resign`` (placed behind everyone who plays on; with one player
    left the match ends). keep_place=True: a bot plays the seat on and it keeps the place the
    bot reaches. Either way the seat's placement carries ``forfeit: reason``."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.ACTIVE:
            raise MatchOver(_("This match is over."))
        seat_row = Seat.objects.filter(match=match, seat=seat).first()
        if seat_row is None or seat_row.resigned:
            raise MatchOver(_("This seat has already left the match."))
        previous = list(match.to_move)
        if not keep_place:
            return _resign_seat(match, seat_row, previous, reason)
        seat_row.bot = seat_row.bot or _default_bot(plugin_for(match))
        seat_row.save(update_fields=["bot"])
        entry = _append(match, kind=LogEntry.Kind.RESIGN, seat=seat, events=[
            {"type": "bot_takes_over", "seat": seat, "reason": reason}], **_actor(match, seat, [seat_row], person=True))
        match.save(update_fields=["version", "updated_at"])
        _after_change(match, previous_to_move=previous)
        _announce_seat_left(match, seat, seat_row.user_id, reason)
        return entry


def _resign_seat(match: Match, seat: Seat, previous: list[int], reason: str) -> LogEntry:
    """``resign`` for a seat the platform takes away; its placement is flagged with the reason."""
    seat.resigned = True
    seat.bot = _default_bot(plugin_for(match))
    seat.save(update_fields=["resigned", "bot"])
    entry = _append(match, kind=LogEntry.Kind.RESIGN, seat=seat.seat,
                    events=[{"type": "resigned", "seat": seat.seat, "reason": reason}],
                    **_actor(match, seat.seat, [seat], person=True))
    seats = list(match.seats.all())
    playing = [s for s in seats if not s.resigned]
    if len(playing) <= 1:
        placements = [{"seat": s.seat, "place": 1, "score": None} for s in playing]
        match.status = Match.Status.FINISHED
        match.outcome = _flag_forfeits(_with_resignations(
            {"placements": placements, "by_resignation": True}, match, seats), match)
        match.finished_at = timezone.now()
        match.to_move = []
        match.save(update_fields=["status", "outcome", "finished_at", "to_move", "version", "updated_at"])
        _sync_seats(match, seats, set())
    else:
        match.save(update_fields=["version", "updated_at"])
        _announce_seat_left(match, seat.seat, seat.user_id, reason)
    _after_change(match, previous_to_move=previous)
    return entry


def hand_over_seat(match_id: int, seat: int, user) -> LogEntry:
    """A substitute takes over a seat its player left (``lobby.services.take_substitute``
    checks the offer). The seat becomes the substitute's: their clock, their private view,
    their moves from the next one on; the bot stops. A ``seat`` log entry records who left
    and who joined, so the log, the replays and the leaver's record stay true."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.ACTIVE:
            raise MatchOver(_("This match is over."))
        seats = list(Seat.objects.filter(match_id=match.pk).select_related("user"))
        if any(s.user_id == user.pk for s in seats):
            raise SeatTaken(_("You already play in this match."))
        row = next((s for s in seats if s.seat == seat), None)
        if row is None or not row.bot:
            raise SeatTaken(_("This seat is not waiting for a substitute."))
        left_id, left_name = row.user_id, row.user.username if row.user_id else ""
        orders_follow.end_with_hand_over(match, row, left_id)  # the leaver's, not the seat's: they end here
        row.user, row.bot, row.resigned = user, "", False
        row.save(update_fields=["user", "bot", "resigned"])
        entry = _append(match, kind=LogEntry.Kind.SEAT, seat=seat, events=[
            {"type": "substitute", "seat": seat, "left": left_id, "left_name": left_name,
             "joined": user.pk, "joined_name": user.username}])
        match.save(update_fields=["version", "updated_at"])
        signals.seat_handed_over.send(sender=Match, match_id=match.pk, seat=seat, left_user_id=left_id,
                                      user_id=user.pk)
        # previous_to_move=[]: the badges of every seat to move are counted again (the new player's).
        _after_change(match, previous_to_move=[], seats=seats)
        return entry


def _flag_forfeits(outcome: dict, match: Match) -> dict:
    """Placements of seats the platform took away (see ``forfeit``) say so: ``forfeit: reason``."""
    reasons = {}
    for kind, events in LogEntry.objects.filter(match=match, kind__in=[LogEntry.Kind.RESIGN, LogEntry.Kind.SEAT]) \
            .order_by("seq").values_list("kind", "events"):
        for event in events or []:
            if kind == LogEntry.Kind.SEAT:  # a substitute plays the seat now: its place is theirs
                reasons.pop(event.get("seat"), None)
            elif event.get("reason"):
                reasons[event["seat"]] = event["reason"]
    if not reasons:
        return outcome
    return {**outcome, "placements": [{**p, "forfeit": reasons[p["seat"]]} if p["seat"] in reasons else p
                                      for p in outcome.get("placements", [])]}


def _default_bot(plugin: Plugin) -> str:
    return plugin.default_bot_name()


# --- replay and bots ------------------------------------------------------------------------------
def replay(match: Match, upto: int | None = None) -> dict:
    """Rebuild the state from the setup record and the log (entries with seq <= upto)."""
    plugin = plugin_for(match)
    engine = plugin.engine
    state = plugin.setup_recorded(match.engine_version, match.players, match.options, match.seed, match.choices)
    entries = LogEntry.objects.filter(match=match, kind__in=[LogEntry.Kind.ACTION, LogEntry.Kind.PENALTY],
                                      undone=False)
    if upto is not None:
        entries = entries.filter(seq__lte=upto)
    for entry in entries.order_by("seq"):
        if entry.kind == LogEntry.Kind.PENALTY:
            step = plugin.apply_penalty(state, entry.seat, entry.action["penalty"])
            state = step.state if step is not None else state
        else:
            state = engine.apply(state, entry.seat, entry.action).state
    return state


def apply_penalty(match_id: int, seat: int, penalty: str) -> LogEntry | None:
    """A judge's game penalty on a running match (``Plugin.apply_penalty``; Der Orden:
    "descend_rank"). Logged (kind penalty) and replayed like a move. None if the game has no
    such penalty or the match is over."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.ACTIVE:
            return None
        plugin = plugin_for(match)
        step = plugin.apply_penalty(match.state, seat, penalty)
        if step is None:
            return None
        match.state = step.state
        entry = _append(match, kind=LogEntry.Kind.PENALTY, seat=seat, action={"penalty": penalty},
                        events=step.events, reveals=step.reveals, **_actor(match, seat, person=True))
        _refresh(match, plugin)
        return entry


def apply_timed_defaults(now=None, limit: int = 500) -> int:
    """Play each overdue ``Plugin.timed_default`` (e.g. Der Orden's reaction deadline) for its
    seat. Run by the clock sweep; safe to repeat and to run concurrently (row lock, and the seat
    must still be to move since the same moment). Returns how many were applied."""
    now = now or timezone.now()
    games = [slug for slug, p in registry.plugins().items() if type(p).timed_default is not Plugin.timed_default]
    if not games:
        return 0
    seats = (Seat.objects.filter(to_move=True, to_move_since__isnull=False, bot="", resigned=False,
                                 match__status=Match.Status.ACTIVE, match__game__in=games)
             .select_related("match").order_by("to_move_since")[:limit])
    applied = 0
    for s in seats:
        plugin = plugin_for(s.match)
        due = plugin.timed_default(s.match.state, s.seat, s.match.options)
        if due is None or s.to_move_since + timedelta(hours=due[0]) > now:
            continue
        try:
            with transaction.atomic():
                match = _locked(s.match_id)
                current = Seat.objects.filter(pk=s.pk, to_move=True, to_move_since=s.to_move_since).exists()
                if match.status != Match.Status.ACTIVE or match.version != s.match.version or not current:
                    continue  # somebody acted meanwhile
                entry = _apply(match, s.seat, dict(due[1]), holder=s)
                # Say in the log why the seat "acted" (the game describes the event).
                entry.events = [{"type": "deadline", "seat": s.seat}, *entry.events]
                entry.save(update_fields=["events"])
            applied += 1
        except (IllegalMove, NotYourTurn):
            logger.warning("timed default for match %s seat %s no longer applies", s.match_id, s.seat)
    return applied


def end_by_tiebreak(match_id: int, reason: str = "deadline") -> LogEntry:
    """End an active match now; places by the game's own rule where it has one
    (``Plugin.placements_at_time_limit``: Der Orden's rank, tie-breaks and lot, with ranks),
    else by ``Plugin.tiebreak_scores`` (equal scores share a place); resigned seats behind. The match is finished like any other
    (ratings, notifications); the log says why. Raises MatchOver if it is over already."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.ACTIVE:
            raise MatchOver(_("This match is over."))
        plugin = plugin_for(match)
        placements = plugin.placements_at_time_limit(match.state)  # the game's own rule, if any
        if placements is None:
            scores = plugin.tiebreak_scores(match.state)
            if scores is None:
                raise MatchOver(_("%(game)s has no tie-break to end a match early.") % {"game": plugin.meta.slug})
            order = sorted(range(match.players), key=lambda s: -scores[s])
            placements, place = [], 0
            for i, s in enumerate(order):
                if i == 0 or scores[s] != scores[order[i - 1]]:
                    place = i + 1
                placements.append({"seat": s, "place": place, "score": None})
        seats = list(match.seats.all())
        before = set(match.to_move)
        entry = _append(match, kind=LogEntry.Kind.END, seat=None, action=None,
                        events=[{"type": "ended", "reason": reason}])
        match.status, match.to_move, match.finished_at = Match.Status.FINISHED, [], timezone.now()
        match.outcome = _flag_forfeits(_with_resignations({"placements": placements, "ended": reason}, match, seats),
                                       match)
        match.save(update_fields=["status", "to_move", "finished_at", "outcome", "version", "updated_at"])
        _sync_seats(match, seats, before)
        _after_change(match, previous_to_move=sorted(before))
        return entry


def time_limit_ends_at(match: Match, plugin: Plugin | None = None):
    """When the game's time limit (``Plugin.time_limit_days``, counted from the start) ends
    ``match`` by the tie-break; None without a limit. The sweep and the match page share it."""
    days = (plugin or plugin_for(match)).time_limit_days(match.options)
    return match.created_at + timedelta(days=days) if days else None


def end_overdue_matches(now=None) -> int:
    """End the matches whose game-time limit has passed (``Plugin.time_limit_days``). Run by
    the clock sweep; idempotent."""
    now = now or timezone.now()
    ended = 0
    for slug, plugin in registry.plugins().items():
        if type(plugin).time_limit_days is Plugin.time_limit_days:
            continue
        for match in Match.objects.filter(game=slug, status=Match.Status.ACTIVE, created_at__lte=now - timedelta(days=1)) \
                .only("id", "options", "created_at").iterator():
            ends_at = time_limit_ends_at(match, plugin)
            if ends_at and ends_at <= now:
                try:
                    end_by_tiebreak(match.pk, "deadline")
                    ended += 1
                except MatchOver:
                    pass  # finished meanwhile
    return ended


def bot_action(plugin: Plugin, name: str, state: dict, seat: int, rng: Rng) -> dict:
    bot = plugin.bots().get(name)
    if bot is not None:
        return bot(state, seat, rng)
    return rng.choice(plugin.engine.legal_actions(state, seat))  # the generic random-legal bot


def bot_seed(seed: int, version: int, seat: int) -> int:
    """A bot's random choices, reproducible per match, version and seat, but keyed through a
    hash: the match's seed also orders its hidden cards, and a bot's visible choices must not
    be an invertible function of it (SplitMix64 is not a one-way function)."""
    digest = hashlib.blake2b(f"bot:{seed}:{version}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def play_bots(match_id: int) -> int:
    """Let bots move while a bot seat is to move. One transaction per move. Returns moves made.
    After BOT_MOVE_LIMIT moves a new task takes over (a task stays short, and a match of four
    bots — a thousand moves of Der Orden — does not wait for ``resume_bots``)."""
    token = _in_bot_loop.set(True)  # this loop moves every bot; don't enqueue more tasks
    try:
        made = _bot_loop(match_id)
    finally:
        _in_bot_loop.reset(token)
    if made >= BOT_MOVE_LIMIT:
        signals.bots_due.send(sender=Match, match_id=match_id)  # a new task goes on
    return made


def _bot_loop(match_id: int) -> int:
    made = 0
    while made < BOT_MOVE_LIMIT:
        with transaction.atomic():
            match = _locked(match_id)
            if match.status != Match.Status.ACTIVE:
                return made
            bot_seat = (Seat.objects.filter(match=match, seat__in=match.to_move)
                        .exclude(bot="").order_by("seat").first())
            if bot_seat is None:
                return made
            plugin = plugin_for(match)
            rng = Rng(bot_seed(match.seed, match.version, bot_seat.seat))
            action = bot_action(plugin, bot_seat.bot, match.state, bot_seat.seat, rng)
            _apply(match, bot_seat.seat, action, holder=bot_seat)
        made += 1
    return made
