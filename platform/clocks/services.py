"""Clocks: start and stop on match changes, remind, time out, vacations, players' records.

Every function takes ``now`` (default: the current time) so that tests drive the clock
instead of patching time. The sweep (``sweep``) is run by Celery beat on the real services and
by an in-process loop on the embedded default (see tasks.py, scheduler.py).
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from matches.errors import MatchError
from matches.models import LogEntry, Match, Seat

from . import conf, timecalc
from .models import PlayerRecord, SeatClock, TimeControl, Vacation

logger = logging.getLogger(__name__)
DAY = 86400.0


class VacationError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# --- time control ---------------------------------------------------------------------------------
def _time_control(match_id: int) -> TimeControl:
    """The match's time control, locked; made from its invitation's (or defaults) on first use."""
    tc = TimeControl.objects.select_for_update().filter(match_id=match_id).first()
    if tc is not None:
        return tc
    match = Match.objects.only("id", "move_days").get(pk=match_id)
    template = TimeControl.objects.filter(invitation__match_id=match_id).first()
    fields = {f: getattr(template, f) for f in ("mode", "move_days", "bank_hours", "increment_hours",
                                                "weekends_off", "policy", "max_timeout_rate")} if template else {}
    fields.setdefault("move_days", match.move_days)
    TimeControl.objects.get_or_create(match_id=match_id, defaults=fields)
    return TimeControl.objects.select_for_update().get(match_id=match_id)


def _blocked(clock: SeatClock, tc: TimeControl, until: datetime) -> list[timecalc.Interval]:
    start = clock.started_at
    blocked = [(v.start, v.end) for v in Vacation.objects.filter(user_id=clock.user_id, end__gt=start)]
    if tc.weekends_off:
        tz = getattr(getattr(clock.user, "profile", None), "timezone", None) or "UTC"
        blocked += timecalc.weekends(tz, start, until)
    return blocked


def _horizon(clock: SeatClock, tc: TimeControl, now: datetime) -> datetime:
    # Far enough that every weekend and vacation before the deadline is included.
    budget = tc.budget_seconds(clock.bank_seconds)
    return max(now, clock.started_at) + timedelta(seconds=budget * 2 + 366 * DAY)


def status(clock: SeatClock, tc: TimeControl, now: datetime) -> dict:
    """Used and total seconds of the running turn, and when it runs out."""
    blocked = _blocked(clock, tc, _horizon(clock, tc, now))
    budget = tc.budget_seconds(clock.bank_seconds)
    return {"used": timecalc.elapsed(clock.started_at, now, blocked), "budget": budget,
            "deadline": timecalc.when_elapsed(clock.started_at, budget, blocked), "blocked": blocked}


def _schedule(clock: SeatClock, tc: TimeControl, now: datetime) -> None:
    """Sets next_check_at: the moment the next reminder or the timeout is due."""
    if clock.started_at is None or clock.stage >= 3:
        clock.next_check_at = None
        return
    shares = list(conf.REMINDERS) + [1.0]
    blocked = _blocked(clock, tc, _horizon(clock, tc, now))
    budget = tc.budget_seconds(clock.bank_seconds)
    clock.next_check_at = timecalc.when_elapsed(clock.started_at, budget * shares[clock.stage], blocked)


# --- match changes ----------------------------------------------------------------------------------
def on_match_changed(match_id: int, version: int, status: str, to_move: list[int], now: datetime | None = None):
    """Start the clocks of the seats that must act now, stop the others. Idempotent per version."""
    now = now or timezone.now()
    started: list[SeatClock] = []
    with transaction.atomic():
        tc = _time_control(match_id)
        clocks = {c.seat_id: c for c in SeatClock.objects.select_for_update(of=("self",)).filter(match_id=match_id)
                  .select_related("user__profile")}
        if clocks and version <= tc.version:
            return []  # already applied (or older than what was applied)
        tc.version = version
        tc.save(update_fields=["version"])
        seats = list(Seat.objects.filter(match_id=match_id))
        if not clocks:
            for s in seats:
                if s.user_id and not s.bot:
                    clock = SeatClock.objects.create(seat=s, match_id=match_id, user_id=s.user_id,
                                                     bank_seconds=tc.bank_hours * 3600.0)
                    clocks[s.pk] = SeatClock.objects.select_related("user__profile").get(pk=clock.pk)
        actor = None
        if version:
            actor = (LogEntry.objects.filter(match_id=match_id, seq=version,
                                             kind__in=[LogEntry.Kind.ACTION, LogEntry.Kind.UNDO])
                     .values_list("seat", flat=True).first())
        active = set(to_move) if status == Match.Status.ACTIVE else set()
        for s in seats:
            clock = clocks.get(s.pk)
            if clock is None:
                continue
            runs = s.seat in active and s.user_id and not s.bot and not s.resigned
            acted = actor is not None and actor == s.seat
            fields = set()
            if clock.started_at is not None and (not runs or acted):
                _stop(clock, tc, now, acted)
                fields |= {"started_at", "bank_seconds", "stage", "next_check_at", "moves"}
            if runs and clock.started_at is None:
                clock.started_at, clock.stage = now, 0
                _schedule(clock, tc, now)
                fields |= {"started_at", "stage", "next_check_at"}
                if not acted:
                    started.append(clock)
            if fields:
                clock.save(update_fields=sorted(fields))
        if status != Match.Status.ACTIVE:
            _count_finished_game([c.user_id for c in clocks.values()])
    return started


def _stop(clock: SeatClock, tc: TimeControl, now: datetime, acted: bool) -> None:
    used = status(clock, tc, now)["used"]
    if tc.mode == TimeControl.Mode.BANK:
        clock.bank_seconds = max(0.0, clock.bank_seconds - used) + (tc.increment_hours * 3600.0 if acted else 0)
    if acted:
        clock.moves += 1
        record, _created = PlayerRecord.objects.select_for_update().get_or_create(user_id=clock.user_id)
        record.moves += 1
        record.recent = (record.recent + [round(used)])[-PlayerRecord.RECENT:]
        record.save(update_fields=["moves", "recent"])
    clock.started_at, clock.next_check_at, clock.stage = None, None, 0


def _count_finished_game(user_ids: list[int]) -> None:
    for user_id in set(user_ids):
        record, _created = PlayerRecord.objects.select_for_update().get_or_create(user_id=user_id)
        record.games += 1
        record.save(update_fields=["games"])


# --- the sweep: reminders, automatic vacation, timeouts ---------------------------------------------
def sweep(now: datetime | None = None, limit: int = 500) -> dict:
    """Handle every clock whose next reminder or timeout is due. Safe to run concurrently and
    repeatedly (each clock is checked under its row lock and only acts on a due stage)."""
    now = now or timezone.now()
    due = list(SeatClock.objects.filter(next_check_at__lte=now, started_at__isnull=False)
               .order_by("next_check_at").values_list("id", flat=True)[:limit])
    counts = {"reminders": 0, "vacations": 0, "timeouts": 0}
    for clock_id in due:
        try:
            for key in check(clock_id, now):
                counts[key] += 1
        except Exception:  # one broken match must not stop the others' clocks
            logger.exception("clock %s: check failed", clock_id)
    # The rules' own short deadlines (Der Orden's reaction window) run on the same sweep.
    from matches.services import apply_timed_defaults, end_overdue_matches

    for key, job in (("timed_defaults", apply_timed_defaults), ("time_limits", end_overdue_matches)):
        try:
            done = job(now)
            if done:
                counts[key] = done
        except Exception:
            logger.exception("%s failed", key)
    return counts


def check(clock_id: int, now: datetime) -> list[str]:
    from notifications.services import notify

    done = []
    with transaction.atomic():
        clock = (SeatClock.objects.select_for_update(of=("self",)).select_related("user__profile", "seat")
                 .filter(pk=clock_id).first())
        if clock is None or clock.started_at is None or clock.next_check_at is None or clock.next_check_at > now:
            return done
        tc = _time_control(clock.match_id)
        st = status(clock, tc, now)
        # Past the deadline (a vacation starting exactly at it leaves used == budget: not past).
        while st["used"] > st["budget"]:
            vacation = _auto_vacation(clock.user_id, st["deadline"], now)
            if vacation is None:
                break
            done.append("vacations")
            notify(clock.user, "vacation_auto", _context(clock, {"until": vacation.end.isoformat()}),
                   key=f"vacation:{vacation.pk}", match_id=clock.match_id)
            _reschedule_user(clock.user_id, now, exclude=clock.pk)
            st = status(clock, tc, now)
        share = st["used"] / st["budget"] if st["budget"] else 1.0
        if st["used"] > st["budget"]:
            _time_out(clock, tc, now)
            done.append("timeouts")
        else:
            stage = sum(1 for r in conf.REMINDERS if share >= r)
            if stage > clock.stage:
                clock.stage = stage
                done.append("reminders")
                notify(clock.user, "reminder", _context(clock, {
                    "deadline": st["deadline"].isoformat(), "hours_left": round((st["budget"] - st["used"]) / 3600)}),
                    key=f"reminder:{clock.pk}:{clock.started_at.timestamp():.0f}:{stage}", match_id=clock.match_id)
            _schedule(clock, tc, now)
            clock.save(update_fields=["stage", "next_check_at"])
    return done


def _time_out(clock: SeatClock, tc: TimeControl, now: datetime) -> None:
    from matches import services as match_services
    from notifications.services import notify

    clock.stage, clock.timed_out, clock.started_at, clock.next_check_at = 3, True, None, None
    clock.save(update_fields=["stage", "timed_out", "started_at", "next_check_at"])
    record, _created = PlayerRecord.objects.select_for_update().get_or_create(user_id=clock.user_id)
    record.timeouts += 1
    record.save(update_fields=["timeouts"])
    try:  # the same transaction: the clock is marked timed out if and only if the policy applied
        match_services.forfeit(clock.match_id, clock.seat.seat, "timeout",
                               keep_place=tc.policy == TimeControl.Policy.BOT)
    except MatchError:
        return  # the match ended meanwhile
    ctx = _context(clock, {"player": clock.user.username, "policy": tc.policy})
    for seat in Seat.objects.filter(match_id=clock.match_id, user__isnull=False).select_related("user"):
        notify(seat.user, "timeout", ctx, key=f"timeout:{clock.pk}", match_id=clock.match_id)


def _context(clock: SeatClock, extra: dict) -> dict:
    from notifications.services import match_context

    return {**match_context(clock.match_id, clock.user_id), **extra}


# --- vacations --------------------------------------------------------------------------------------
def vacation_days_used(user_id: int, year: int) -> float:
    return sum(v.days for v in Vacation.objects.filter(user_id=user_id, start__year=year))


def vacation_days_left(user_id: int, now: datetime | None = None) -> float:
    now = now or timezone.now()
    return max(0.0, conf.VACATION_DAYS_PER_YEAR - vacation_days_used(user_id, now.year))


def _auto_vacation(user_id: int, at: datetime, now: datetime) -> Vacation | None:
    """One day of the allowance, from the moment the clock would have run out."""
    if vacation_days_left(user_id, at) < 1:
        return None
    current = Vacation.objects.filter(user_id=user_id, start__lte=at, end__gt=at).first()
    if current is not None:
        return None  # the clock already stands still here; nothing to add
    return Vacation.objects.create(user_id=user_id, start=at, end=at + timedelta(days=1), auto=True)


def take_vacation(user, start: datetime, days: int, now: datetime | None = None) -> Vacation:
    """Take ``days`` of the allowance from ``start`` (not in the past); the clocks stand still."""
    now = now or timezone.now()
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise VacationError(_("A vacation lasts at least one whole day."))
    start = max(start, now)
    end = start + timedelta(days=days)
    with transaction.atomic():
        left = vacation_days_left(user.id, start)
        if days > left:
            raise VacationError(ngettext("You have %(days)s vacation day left this year.",
                                         "You have %(days)s vacation days left this year.", int(left))
                                % {"days": int(left)})
        if Vacation.objects.filter(user=user, start__lt=end, end__gt=start).exists():
            raise VacationError(_("This overlaps a vacation you have already taken."))
        vacation = Vacation.objects.create(user=user, start=start, end=end)
        _reschedule_user(user.id, now)
    return vacation


def cancel_vacation(user, vacation_id: int, now: datetime | None = None) -> None:
    """A vacation that has not begun can be cancelled (the days return to the allowance)."""
    now = now or timezone.now()
    with transaction.atomic():
        deleted, _rows = Vacation.objects.filter(user=user, pk=vacation_id, start__gt=now, auto=False).delete()
        if not deleted:
            raise VacationError(_("Only a vacation that has not begun can be cancelled."))
        _reschedule_user(user.id, now)


def _reschedule_user(user_id: int, now: datetime, exclude: int | None = None) -> None:
    for clock in (SeatClock.objects.select_for_update(of=("self",)).select_related("user__profile")
                  .filter(user_id=user_id, started_at__isnull=False).exclude(pk=exclude)):
        _schedule(clock, _time_control(clock.match_id), now)
        clock.save(update_fields=["next_check_at"])


def on_vacation(user_ids, now: datetime | None = None) -> dict[int, Vacation]:
    now = now or timezone.now()
    return {v.user_id: v for v in Vacation.objects.filter(user_id__in=list(user_ids), start__lte=now, end__gt=now)}


# --- who may join -----------------------------------------------------------------------------------
def requirement_error(invitation_id: int, user_id: int) -> str | None:
    """Why the user may not join (None: they may)."""
    tc = TimeControl.objects.filter(invitation_id=invitation_id).only("max_timeout_rate").first()
    if tc is None or tc.max_timeout_rate is None:
        return None
    record = PlayerRecord.objects.filter(user_id=user_id).first()
    rate = record.timeout_rate if record else 0.0
    if rate > tc.max_timeout_rate:
        return _("This invitation is for players who lost at most %(limit)s of their games on time; "
                 "you lost %(rate)s.") % {"limit": f"{tc.max_timeout_rate:.0%}", "rate": f"{rate:.0%}"}
    return None
