"""Business rules of tournaments and leagues: create, sign up, start, drop, re-join,
disqualify, officials, results, sanctions, deadlines. Pages, API, Celery tasks and the
management command all call these functions; each runs in one transaction that locks the
tournament row first (``locked``), so concurrent finishes cannot pair a round twice.

Every refusal raises a ``TournamentError`` carrying its HTTP status (errors.py).
"""
from __future__ import annotations

import secrets
from decimal import Decimal, InvalidOperation
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from games import registry
from games.base import BadOptions
from matches import services as match_services
from matches.errors import MatchError
from matches.models import Match, Seat

from . import conf, logic, matchstop, notify, rounds
from .errors import Conflict, Forbidden, Invalid, NotFound
from .models import MAX_TABLE, Entrant, Official, ResultCorrection, Round, Sanction, Table, Tournament
from .roles import is_official, may_correct, may_disqualify

FORMATS = {c.value for c in Tournament.Format}
STRUCTURES = {c.value for c in Tournament.Structure}
SCORINGS = {c.value for c in Tournament.Scoring}
TIEBREAKERS = {c.value for c in Tournament.Tiebreakers}
LEVELS = {c.value for c in Tournament.Level}


def _game_name(meta) -> str:
    return meta.name_de if (translation.get_language() or "en").startswith("de") else meta.name_en


def _now(now):
    return now or timezone.now()


def locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound(_("There is no such tournament.")) from None


def _pk(t) -> int:
    return t.pk if isinstance(t, Tournament) else int(t)


def _plugin(slug: str):
    try:
        return registry.get(slug)
    except KeyError:
        raise Invalid(_("There is no game %(slug)r.") % {"slug": slug}) from None


# --- create -------------------------------------------------------------------------------------
def create_tournament(organizer, *, game: str, name: str, format: str = "swiss", structure: str = "basis",
                      rounds: int | None = None, cut: int | None = None, scoring: str | None = None,
                      tiebreakers: str = "eiserner_thron", players_per_match: int = 2, round_days: int = 7,
                      level: str = "casual", signup_deadline=None, season_end=None, rated: bool = True,
                      options: dict | None = None) -> Tournament:
    plugin = _plugin(game)
    name = (name or "").strip()
    if not name:
        raise Invalid(_("Give the tournament a name."))
    for value, allowed, what in ((format, FORMATS, "format"), (structure, STRUCTURES, "structure"),
                                 (tiebreakers, TIEBREAKERS, "tiebreakers"), (level, LEVELS, "level")):
        if value not in allowed:
            raise Invalid(_("Unknown %(what)s %(value)r; use one of: %(allowed)s.") % {
                "what": what, "value": value, "allowed": ", ".join(sorted(allowed))})
    meta = plugin.meta
    if not isinstance(players_per_match, int) or not meta.min_players <= players_per_match <= meta.max_players:
        raise Invalid(_("%(game)s is played by %(min)s to %(max)s players per match.") % {
            "game": _game_name(meta), "min": meta.min_players, "max": meta.max_players})
    if players_per_match > MAX_TABLE:
        raise Invalid(_("Tournament tables seat at most %(max)s players.") % {"max": MAX_TABLE})
    if format == "knockout" and players_per_match != 2:
        raise Invalid(_("A knockout is played two players per match."))
    if scoring is None:
        scoring = "placement" if players_per_match > 2 or format == "league" else "eiserner_thron"
    if scoring not in SCORINGS:
        raise Invalid(_("Unknown scoring %(value)r; use one of: %(allowed)s.") % {
            "value": scoring, "allowed": ", ".join(sorted(SCORINGS))})
    if players_per_match > 2 and scoring not in ("placement", "league"):
        raise Invalid(_("Matches of more than two players are scored by placement or league scoring."))
    if structure == "custom" and format != "knockout" and format != "league":
        if not isinstance(rounds, int) or not 1 <= rounds <= 30:
            raise Invalid(_("A custom structure needs a number of Swiss rounds (1–30)."))
    if cut is not None and (not isinstance(cut, int) or cut < 2 or cut > 64):
        raise Invalid(_("The cut must be between 2 and 64 players."))
    if cut is not None and format != "swiss_cut":
        raise Invalid(_("A cut needs the format swiss_cut (Swiss rounds, then the top players in a knockout)."))
    if not isinstance(round_days, int) or not 1 <= round_days <= 60:
        raise Invalid(_("Days per round must be between 1 and 60."))
    if format == "league" and season_end is None:
        raise Invalid(_("A league needs a season end date."))
    try:
        options = meta.clean_options(options)
    except BadOptions as exc:
        raise Invalid(exc.text(translation.get_language())) from None
    if scoring == "league" and format != "league":
        _check_league_scoring(plugin, format, options)
    return Tournament.objects.create(
        name=name[:120], game=game, format=format, structure=structure, rounds=rounds, cut=cut, scoring=scoring,
        tiebreakers=tiebreakers, players_per_match=players_per_match, round_days=round_days, level=level,
        signup_deadline=signup_deadline, season_end=season_end, rated=rated, options=options,
        organizer=organizer, seed=secrets.randbits(63))


def _check_league_scoring(plugin, format: str, options: dict) -> None:
    """Der Orden: „Wird in einem Turnier auf Zeit oder Runden gespielt, kann auch eine
    Ligawertung verwendet werden.“ — a time limit or a fixed number of rounds per match."""
    if format == "knockout":
        raise Invalid(_("A knockout has no points; league scoring needs Swiss rounds or a league."))
    if not (plugin.time_limit_days(options) or options.get("rounds")):
        raise Invalid(_("League scoring in a tournament needs matches played on time or for a fixed "
                        "number of rounds: set the game's time limit or its number of rounds."))


# --- officials and entrants ------------------------------------------------------------------------
def add_official(t, by, user, role: str = Official.Role.JUDGE) -> Official:
    with transaction.atomic():
        t = locked(_pk(t))
        if by.id != t.organizer_id:
            raise Forbidden(_("Only the organizer appoints judges."))
        if role not in Official.Role.values:
            raise Invalid(_("Unknown role %(role)r; use head_judge or judge.") % {"role": role})
        if user.id == t.organizer_id:
            raise Conflict(_("The organizer is already an official."))
        if not t.officials_may_play and Entrant.objects.filter(tournament=t, user=user).exists():
            raise Conflict(_("In a formal or premium event officials may not play; this user is registered."))
        official, _created = Official.objects.update_or_create(tournament=t, user=user, defaults={"role": role})
        return official


def register(t, user, *, choices: dict | None = None, deck=None, now=None) -> Entrant:
    """Sign up. For a deck game the deck (the game's seat choice ``deck``) is required and
    locked for the whole tournament."""
    now = _now(now)
    with transaction.atomic():
        t = locked(_pk(t))
        _check_open_for_signup(t, now)
        if not t.officials_may_play and (user.id == t.organizer_id
                                         or Official.objects.filter(tournament=t, user=user).exists()):
            raise Forbidden(_("In a formal or premium event the organizer and judges may not play."))
        existing = Entrant.objects.filter(tournament=t, user=user).first()
        if existing is not None:
            if existing.status == Entrant.Status.ACTIVE:
                raise Conflict(_("You are already registered."))
            raise Conflict(_("You have left this tournament; re-join instead.") if existing.status == "dropped"
                           else _("You are disqualified from this tournament."))
        entrant = Entrant.objects.create(tournament=t, user=user, choices=clean_choices(t, user, choices, deck))
    return entrant


def clean_choices(t: Tournament, user, choices: dict | None, deck) -> dict:
    plugin = _plugin(t.game)
    declared = {c.key for c in plugin.meta.seat_choices}
    raw = dict(choices or {})
    if not isinstance(choices or {}, dict):
        raise Invalid(_("'choices' must be an object."))
    if deck not in (None, ""):
        if "deck" not in declared:
            raise Invalid(_("%(game)s is not played with decks; send no deck.") % {"game": _game_name(plugin.meta)})
        raw["deck"] = deck
    elif "deck" in declared and "deck" not in raw:
        raise Invalid(_("Register the deck you will play with ('deck'); it is locked for the whole tournament."))
    try:
        return plugin.clean_choices(raw, user.id if user else None)
    except BadOptions as exc:
        raise Invalid(exc.text(translation.get_language())) from None


def _check_open_for_signup(t: Tournament, now) -> None:
    if t.is_league:
        if t.status == Tournament.Status.FINISHED or (t.season_end and now >= t.season_end):
            raise Conflict(_("The league's season is over."))
        return
    if t.status != Tournament.Status.REGISTRATION:
        raise Conflict(_("Sign-up is closed: the tournament has started."))
    if t.signup_deadline and now >= t.signup_deadline:
        raise Conflict(_("The sign-up deadline has passed."))


def add_bot(t, by, bot: str | None = None) -> Entrant:
    """The organizer adds a bot entrant (it plays its matches itself). Bots get a user
    account of their own so that standings and pairings stay lists of user ids."""
    with transaction.atomic():
        t = locked(_pk(t))
        if by.id != t.organizer_id:
            raise Forbidden(_("Only the organizer adds bots."))
        if t.status != Tournament.Status.REGISTRATION and not t.is_league:
            raise Conflict(_("Bots can be added only before the start."))
        plugin = _plugin(t.game)
        bots = plugin.bots()
        bot = bot or plugin.default_bot_name()
        allowed = [*bots, *([] if "random-legal" in bots else ["random-legal"])]  # as the lobby allows
        if bot not in allowed:
            raise Invalid(_("Unknown bot %(bot)r; use one of: %(allowed)s.") % {"bot": bot[:40], "allowed": ", ".join(allowed)})
        n = Entrant.objects.filter(tournament=t).exclude(bot="").count() + 1
        User = get_user_model()
        user = User(username=f"bot{n}-t{t.pk}")
        user.set_unusable_password()
        user.save()
        return Entrant.objects.create(tournament=t, user=user, bot=bot, choices=plugin.clean_choices({}, None))


# --- start, rounds ------------------------------------------------------------------------------
def start(t, by, now=None) -> Round | None:
    now = _now(now)
    with transaction.atomic():
        t = locked(_pk(t))
        if by.id != t.organizer_id:
            raise Forbidden(_("Only the organizer starts the tournament."))
        if t.status != Tournament.Status.REGISTRATION:
            raise Conflict(_("The tournament has already started."))
        n = Entrant.objects.filter(tournament=t, status=Entrant.Status.ACTIVE).count()
        if n < 2:
            raise Conflict(_("At least two players must be registered."))
        # A casual event starts while its organizer plays (the form's help: only formal and
        # premium events forbid officials to play); the own table is still decided by someone
        # else or by the match itself (set_result, next_round refuse an official's own table).
        if t.format == Tournament.Format.SWISS or t.format == Tournament.Format.SWISS_CUT:
            try:
                structure = logic.structure_for(t.structure, n, rounds=t.rounds, cut=None)
            except ValueError as exc:
                raise Conflict(_("The structure does not fit %(n)s players: %(reason)s.") % {"n": n, "reason": exc}) from None
            cut = t.cut if t.cut is not None else structure.cut
            if t.format == Tournament.Format.SWISS and cut:
                # Not silently: the structure table the organizer chose prescribes a cut.
                raise Conflict(_("The %(structure)s structure has a cut to %(cut)s for %(n)s players: choose the "
                                 "format swiss_cut, or the custom structure for Swiss rounds only.") % {
                                     "structure": t.structure, "cut": cut, "n": n})
            if t.format == Tournament.Format.SWISS_CUT:
                if not cut:
                    raise Conflict(_("The %(structure)s structure has no cut for %(n)s players; set a cut.") % {
                        "structure": t.structure, "n": n})
                if cut > n:
                    raise Conflict(_("A cut to %(cut)s needs at least %(cut)s players.") % {"cut": cut})
            t.swiss_rounds, t.cut_size = structure.rounds, (cut if t.format == Tournament.Format.SWISS_CUT else None)
        t.status, t.started_at = Tournament.Status.RUNNING, now
        t.stage = logic.KNOCKOUT if t.format == Tournament.Format.KNOCKOUT else logic.SWISS
        t.save(update_fields=["status", "started_at", "stage", "swiss_rounds", "cut_size"])
        return rounds.pair_next(t, rounds.load(t), now)


def next_round(t, by, now=None) -> Round | None:
    """Organizer: end the open round now (unfinished tables decided as at the deadline) and
    pair the next one."""
    now = _now(now)
    with transaction.atomic():
        t = locked(_pk(t))
        if by.id != t.organizer_id:
            raise Forbidden(_("Only the organizer moves the tournament to the next round."))
        if t.status != Tournament.Status.RUNNING:
            raise Conflict(_("The tournament is not running."))
        open_tables = Table.objects.filter(round__tournament=t, round__closed=False, result__isnull=True)
        if any(by.id in users for users in open_tables.values_list("users", flat=True)):
            # Ending the round now would decide the organizer's own table.
            raise Conflict(_("The round still has your own table open: it ends at its deadline, or another "
                             "official or the head judge sets your table's result first."))
        return rounds.advance(t, now, force=True)


def match_finished(match_id: int, now=None) -> bool:
    """A platform match ended: record its result if it is a tournament table, and close the
    round / pair the next one when it was the last. Idempotent."""
    now = _now(now)
    tid = Table.objects.filter(match_id=match_id).values_list("round__tournament_id", flat=True).first()
    if tid is None:
        return False
    with transaction.atomic():
        t = locked(tid)
        table = Table.objects.select_related("round").get(match_id=match_id)
        if table.result is not None or table.round.closed:
            return False
        rounds.decide(t, table, at_deadline=False)
        if t.status == Tournament.Status.RUNNING:
            rounds.advance(t, now)
        return True


def close_due_rounds(now=None) -> int:
    """Close every open round whose deadline has passed (Celery beat, management command);
    send reminders before deadlines; end leagues whose season is over. Returns rounds closed."""
    now = _now(now)
    closed = 0
    due = list(Round.objects.filter(closed=False, deadline__lte=now).values_list("tournament_id", "pk"))
    for tid, rid in due:
        with transaction.atomic():
            t = locked(tid)
            if Round.objects.filter(pk=rid, closed=False).exists() and t.status == Tournament.Status.RUNNING:
                rounds.advance(t, now, force=True)
                closed += 1
    _remind(now)
    # A league with nothing open waits for players (fewer than two were active when its last
    # round closed): pair as soon as two are active again; at the season end it finishes below.
    for tid in Tournament.objects.filter(format=Tournament.Format.LEAGUE, status=Tournament.Status.RUNNING,
                                         season_end__gt=now).exclude(round_set__closed=False).values_list("pk", flat=True):
        with transaction.atomic():
            t = locked(tid)
            field = rounds.load(t)
            if t.status == Tournament.Status.RUNNING and field.open_round is None and len(field.active) >= 2:
                rounds.pair_next(t, field, now)
    for tid in Tournament.objects.filter(format=Tournament.Format.LEAGUE, status=Tournament.Status.RUNNING,
                                         season_end__lte=now).values_list("pk", flat=True):
        with transaction.atomic():
            t = locked(tid)
            field = rounds.load(t)
            if t.status == Tournament.Status.RUNNING and field.open_round is None:
                rounds.finish(t, field, now)
    return closed


def _remind(now) -> None:
    soon = now + timedelta(hours=conf.REMINDER_HOURS)
    for rnd in Round.objects.filter(closed=False, reminded=False, deadline__lte=soon).select_related("tournament"):
        with transaction.atomic():
            if not Round.objects.filter(pk=rnd.pk, reminded=False).update(reminded=True):
                continue  # another worker took it
            bots = set(Entrant.objects.filter(tournament=rnd.tournament_id).exclude(bot="")
                       .values_list("user_id", flat=True))
            waiting = {u for tb in rnd.tables.filter(result__isnull=True) for u in tb.users} - bots
            context = {"tournament": rnd.tournament.name, "tournament_id": rnd.tournament_id, "round": rnd.number,
                       "deadline": rnd.deadline.isoformat(), "game": rnd.tournament.game}
            transaction.on_commit(lambda w=waiting, c=context, k=f"deadline:{rnd.pk}": notify.send(
                w, "round_deadline", c, key=k))


# --- drops, re-joins, disqualification ---------------------------------------------------------------
def _entrant(t: Tournament, user) -> Entrant:
    e = Entrant.objects.filter(tournament=t, user=user).first() if user and user.is_authenticated else None
    if e is None:
        raise Forbidden(_("You are not registered in this tournament."))
    return e


def _leave_open_match(t: Tournament, user) -> None:
    """A player who leaves loses the table they are at now (resigning: with two players the
    opponent wins; with more, a bot plays the seat on and the player is placed last)."""
    table = (Table.objects.filter(round__tournament=t, round__closed=False, result__isnull=True,
                                  match__status=Match.Status.ACTIVE).filter(match__seats__user=user).first())
    if table is None:
        return
    try:
        match_services.resign(table.match_id, user)
    except MatchError:
        pass  # already left that match


def drop(t, user, now=None, by=None) -> Entrant | None:
    """Leave. Before the start this withdraws the registration (deck included). ``by``: an
    official (organizer, head judge, judge) takes ``user`` out of the tournament."""
    now = _now(now)
    with transaction.atomic():
        t = locked(_pk(t))
        if by is not None and by.id != getattr(user, "id", None):
            if not is_official(t, by):
                raise Forbidden(_("Only the organizer and the judges drop other players."))
            e = Entrant.objects.filter(tournament=t, user=user).first()
            if e is None:
                raise Invalid(_("This user does not play in this tournament."))
        else:
            e = _entrant(t, user)
        if t.status == Tournament.Status.FINISHED:
            raise Conflict(_("The tournament is over."))
        if e.status != Entrant.Status.ACTIVE:
            raise Conflict(_("You have already left this tournament."))
        if t.status == Tournament.Status.REGISTRATION:
            e.delete()
            return None
        e.status, e.dropped_stage, e.dropped_round = Entrant.Status.DROPPED, t.stage, _last_round_in(t, user)
        e.save(update_fields=["status", "dropped_stage", "dropped_round"])
        # A qualified player who drops before the first knockout game: the next in the
        # standings is brought in (the cut is made again); later a drop is a walkover.
        if t.stage == logic.KNOCKOUT and rounds.recut(t, now, user.id) is not None:
            return e
        _leave_open_match(t, user)
        return e


def _last_round_in(t: Tournament, user) -> int:
    """The last round of the current stage in which ``user`` had a table, bye or loss."""
    field = rounds.load(t)
    last = 0
    for r in field.stage_rounds(t.stage):
        if (user.id in r.byes or user.id in r.unpaired_losses
                or any(user.id in m.players for m in r.matches)):
            last = r.number
    return last


def rejoin(t, user, now=None) -> Entrant:
    """Come back in the same stage: one unpaired loss for every round missed meanwhile."""
    with transaction.atomic():
        t = locked(_pk(t))
        e = _entrant(t, user)
        if e.status == Entrant.Status.DISQUALIFIED:
            raise Forbidden(_("A disqualified player can never re-join."))
        if e.status == Entrant.Status.ACTIVE:
            raise Conflict(_("You are still playing in this tournament."))
        if t.status != Tournament.Status.RUNNING:
            raise Conflict(_("The tournament is not running."))
        if t.stage == logic.KNOCKOUT:
            raise Conflict(_("A knockout cannot be re-entered."))
        field = rounds.load(t)
        try:
            missed = logic.rejoin(user.id, field.stage_rounds(t.stage), dropped_in_stage=e.dropped_stage,
                                  current_stage=t.stage, since_round=e.dropped_round)
        except logic.RejoinRefused as exc:
            raise Conflict(_("Re-joining is not possible: %(reason)s.") % {"reason": exc}) from None
        for rnd in field.rounds:
            if rnd.stage == t.stage and rnd.stage_round in missed and user.id not in rnd.unpaired_losses:
                rnd.unpaired_losses = [*rnd.unpaired_losses, user.id]
                rnd.save(update_fields=["unpaired_losses"])
        e.status, e.dropped_stage = Entrant.Status.ACTIVE, ""
        e.save(update_fields=["status", "dropped_stage"])
        return e


def disqualify(t, by, user, reason: str, now=None) -> Sanction:
    reason = (reason or "").strip()
    with transaction.atomic():
        t = locked(_pk(t))
        if not may_disqualify(t, by):
            raise Forbidden(_("Only the organizer and the judges disqualify players."))
        if not reason:
            raise Invalid(_("Give the reason for the disqualification; it is recorded."))
        e = Entrant.objects.filter(tournament=t, user=user).first()
        if e is None:
            raise Invalid(_("This user does not play in this tournament."))
        if e.status == Entrant.Status.DISQUALIFIED:
            raise Conflict(_("This player is already disqualified."))
        e.status = Entrant.Status.DISQUALIFIED
        e.save(update_fields=["status"])
        sanction = Sanction.objects.create(tournament=t, user=user, kind=Sanction.Kind.DISQUALIFICATION,
                                           reason=reason[:500], applied=True, issued_by=by)
        if t.status == Tournament.Status.RUNNING:
            _leave_open_match(t, user)
        return sanction


# --- judges: results and sanctions ------------------------------------------------------------------
OWN_TABLE = _lazy("You play at this table: another official or the head judge decides its result.")


def _not_own_table(table: Table, by) -> None:
    """Officials who play (casual events allow it) do not decide their own table."""
    if by.id in table.users:
        raise Forbidden(str(OWN_TABLE))


def _result(t: Tournament, table: Table, placements: list[int], modified: bool, kind: str | None, source: str) -> dict:
    """The result a judge enters: ``kind`` any result of the tournament's scheme (Mittelerde:
    "draw", "council", "win_1_5", ...), else a win or (``modified``) a modified win. A level
    knockout game is decided as the scheme says (rounds.knockout_tie: 2W6)."""
    if kind in (None, ""):
        kind = "modified_win" if modified else "win"
    elif kind not in rounds.scheme(t).results:
        allowed = ", ".join(sorted(rounds.scheme(t).results)) or "win"
        raise Invalid(_("Unknown result %(kind)r for this tournament's scoring; use one of: %(allowed)s.") % {
            "kind": str(kind)[:40], "allowed": allowed})
    return rounds.knockout_tie(t, table, {"placements": placements, "kind": kind, "source": source})


def set_result(t, by, match_id, placements, modified: bool = False, now=None, reason: str = "",
               kind: str | None = None) -> Table:
    """A judge's (or the organizer's) result for a table of the open round, as if the match had
    ended so: ``placements`` are the table's user ids, best first. A running match is stopped.
    For a table of a closed round this is a correction (``correct_result``)."""
    now = _now(now)
    with transaction.atomic():
        t = locked(_pk(t))
        if not is_official(t, by):
            raise Forbidden(_("Only the organizer and the judges set results."))
        table = Table.objects.select_related("round").filter(round__tournament=t, match_id=match_id).first()
        if table is None:
            raise NotFound(_("This match is not part of this tournament."))
        _not_own_table(table, by)
        if (not isinstance(placements, list) or any(isinstance(p, bool) or not isinstance(p, int) for p in placements)
                or sorted(placements) != sorted(table.users)):
            raise Invalid(_("'placements' must list the players of this match (%(users)s), best first.") % {
                "users": table.users})
        if not isinstance(modified, bool):
            raise Invalid(_("'modified' must be true or false."))
        if table.round.closed:
            return _correct(t, by, table, placements, modified, reason, kind)
        result = _result(t, table, placements, modified, kind, "judge")
        match = matchstop.lock(table.match_id)
        matchstop.stop(match)
        table.result = result
        table.decided_by = by
        table.save(update_fields=["result", "decided_by"])
        if t.status == Tournament.Status.RUNNING:
            rounds.advance(t, now)
        return table


def _correct(t: Tournament, by, table: Table, placements: list[int], modified: bool, reason: str,
             kind: str | None = None) -> Table:
    """Change a closed round's result. Organizer and head judges only, with a recorded reason.
    Swiss and league rounds: the standings follow at once; rounds already paired from the old
    standings stand (pairings are never redone). Knockout: only while no later round was paired
    from it (the winner would already play on) — i.e. the final."""
    if not may_correct(t, by):
        raise Forbidden(_("Only the organizer and head judges correct the result of a closed round."))
    reason = (reason or "").strip()
    if not reason:
        raise Invalid(_("Give the reason for the correction; it is recorded."))
    if table.round.stage == logic.KNOCKOUT and Round.objects.filter(tournament=t, number__gt=table.round.number).exists():
        raise Conflict(_("A later knockout round was already paired from this result; it can no longer be corrected."))
    old = table.result
    table.result = _result(t, table, placements, modified, kind, "correction")
    table.decided_by = by
    table.save(update_fields=["result", "decided_by"])
    ResultCorrection.objects.create(table=table, by=by, reason=reason[:500], old=old, new=table.result)
    if t.status == Tournament.Status.FINISHED:  # the champion may change with the result
        t.winner_id = rounds.champion_of(t, rounds.load(t))
        t.save(update_fields=["winner"])
    return table


SANCTION_KINDS = {c.value for c in Sanction.Kind}


def sanction(t, by, user, kind: str, reason: str, match_id: int | None = None, now=None, points=None) -> Sanction:
    """Record a sanction with its reason. A game loss sets the table's result (the player
    last); a disqualification disqualifies; "descend one rank" is applied to the running match
    where the game has that penalty (``Plugin.apply_penalty``: Der Orden), otherwise recorded
    as an instruction for the players (``applied`` False), like warnings and "other"."""
    if kind == Sanction.Kind.DISQUALIFICATION:
        return disqualify(t, by, user, reason, now)
    reason = (reason or "").strip()
    with transaction.atomic():
        t = locked(_pk(t))
        if not is_official(t, by):
            raise Forbidden(_("Only the organizer and the judges apply sanctions."))
        if kind not in SANCTION_KINDS:
            raise Invalid(_("Unknown sanction %(kind)r; use one of: %(allowed)s.") % {
                "kind": kind, "allowed": ", ".join(sorted(SANCTION_KINDS))})
        if not reason:
            raise Invalid(_("Give the reason for the sanction; it is recorded."))
        if not Entrant.objects.filter(tournament=t, user=user).exists():
            raise Invalid(_("This user does not play in this tournament."))
        table = None
        if match_id is not None:
            table = Table.objects.filter(round__tournament=t, match_id=match_id).first()
            if table is None or user.id not in table.users:
                raise Invalid(_("That match is not this player's match in this tournament."))
            _not_own_table(table, by)
        elif kind in (Sanction.Kind.GAME_LOSS, Sanction.Kind.DESCEND_RANK):
            table = (Table.objects.filter(round__tournament=t, round__closed=False)
                     .filter(match__seats__user=user).first())
            if table is None:
                raise Invalid(_("This player has no match in the open round; name the match."))
            _not_own_table(table, by)
        applied = False
        if kind == Sanction.Kind.POINT_DEDUCTION:
            try:
                points = Decimal(str(points))
            except (InvalidOperation, ValueError, TypeError):
                points = None
            if points is None or not points.is_finite() or not 0 < points <= 1000:
                raise Invalid(_("A point deduction needs the points to take off ('points', more than 0)."))
            applied = True  # the standings subtract it
        else:
            points = None
        if kind == Sanction.Kind.GAME_LOSS:
            others = [u for u in table.users if u != user.id]
            applied = True
        elif kind == Sanction.Kind.DESCEND_RANK and table is not None:
            # Applied to the running game where the game knows the penalty (Der Orden); else
            # (or once the match is over) it stays an instruction.
            seat = Seat.objects.filter(match_id=table.match_id, user=user).values_list("seat", flat=True).first()
            if seat is not None:
                applied = match_services.apply_penalty(table.match_id, seat, "descend_rank") is not None
        record = Sanction.objects.create(tournament=t, user=user, table=table, kind=kind, reason=reason[:500],
                                         applied=applied, issued_by=by, points=points)
        if kind == Sanction.Kind.GAME_LOSS:
            set_result(t.pk, by, table.match_id, [*others, user.id], modified=False, now=now)
        return record
