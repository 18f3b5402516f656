"""Notices that respect attention: a "your turn" (and a chat line, a start, an end) is not
mailed or pushed while the player plays; it waits for the user's delay and then goes out
only if it is still wanted.

- ``notify`` writes such a delivery DEFERRED, due (``not_before``) after the user's delay
  (mail: ``Preference.turn_mail``, push: ``turn_push``), in the transaction that records the
  turn (the clocks' follow-up of the move's commit): nothing can be lost between the move
  and the notice.
- ``release`` (the flush, every minute; at once for a delay of 0) looks at the due ones:
  skipped for good when the turn was played (the same decision is no longer open), the
  notification was read (the match was opened) or the match's page was open after it came;
  put off while the player is present (matches/presence.py), and until the delay has passed
  since the later of "it came" and "the player left"; in quiet hours until they end; a turn
  mail within an hour of the previous one waits for the hour, unless a deadline is near.
  What remains becomes PENDING and goes the usual way; the turn mails of one user go as one
  mail (mail.send_turns), and take along the user's other turns that wait, open and unseen,
  but are not due yet (one mail now rather than another within the hour).
- Deadline warnings (reminders, timeouts, vacation days) are not of these kinds: they keep
  their own timing.

Direction: ``notify`` (services) writes deferred deliveries and the tasks run ``release``, so both
import this module; it queues what it releases through ``outbox`` and ``signals``, never the tasks.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from . import signals
from .kinds import EMAIL
from .models import DELAYS, Delivery, Preference, TurnMail
from .outbox import enqueue
from .recipients import quiet_until, user_tz

logger = logging.getLogger(__name__)

TURN = "your_turn"
KINDS = frozenset({TURN, "chat", "chat_mention", "match_started", "match_finished"})
RECHECK = timedelta(seconds=60)  # a present player's notice is looked at again after this at the least
TURN_MAIL_GAP = timedelta(hours=1)  # at most one turn mail per user in this time…
DEADLINE_NEAR = timedelta(hours=12)  # …unless a clock runs out within this


def delay(pref: Preference, channel: str) -> timedelta:
    return timedelta(seconds=DELAYS.get(pref.turn_mail if channel == EMAIL else pref.turn_push, 0))


def initial(kind: str, channel: str, pref: Preference, now: datetime):
    """(status, not_before) of a new delivery of ``kind``, or None for the kinds that do not wait."""
    if kind not in KINDS:
        return None
    if channel == EMAIL and (pref.digest or pref.turn_mail == TurnMail.DIGEST):
        return Delivery.Status.DIGEST, None
    return Delivery.Status.DEFERRED, now + delay(pref, channel)


def turn_of(key: str) -> tuple[int, int] | None:
    """(seat id, moves) from a "your turn" key ``turn:<match>:<seat id>:<moves>``."""
    parts = key.split(":")
    if len(parts) != 4 or parts[0] != "turn" or not (parts[2].isdigit() and parts[3].isdigit()):
        return None
    return int(parts[2]), int(parts[3])


def open_turns(notifications) -> set[int]:
    """The ids of the "your turn" notifications whose decision is still open: the seat's clock
    runs and the seat has not acted since (its ``moves`` is the key's). One query."""
    from clocks.models import SeatClock

    wanted = {n.pk: turn_of(n.key) for n in notifications if n.kind == TURN}
    seats = {t[0] for t in wanted.values() if t}
    if not seats:
        return set()
    running = set(SeatClock.objects.filter(seat_id__in=seats, started_at__isnull=False, timed_out=False)
                  .values_list("seat_id", "moves"))
    return {pk for pk, t in wanted.items() if t in running}


def deadlines(pairs) -> dict[tuple[int, int], datetime]:
    """(match id, user id) -> when that player's clock runs out (running clocks only)."""
    from clocks.models import SeatClock

    pairs = set(pairs)
    if not pairs:
        return {}
    rows = SeatClock.objects.filter(match_id__in={m for m, _ in pairs}, user_id__in={u for _, u in pairs},
                                    started_at__isnull=False, deadline__isnull=False)
    return {(m, u): d for m, u, d in rows.values_list("match_id", "user_id", "deadline") if (m, u) in pairs}


def still_waiting(deliveries) -> tuple[list, list]:
    """(wanted, gone) among deliveries of these kinds: gone when read or, for a turn, played."""
    open_ids = open_turns([d.notification for d in deliveries])
    wanted, gone = [], []
    for d in deliveries:
        n = d.notification
        if n.kind in KINDS and (n.read_at is not None or (n.kind == TURN and n.pk not in open_ids)):
            gone.append(d)
        else:
            wanted.append(d)
    return wanted, gone


def _last_turn_mails(user_ids, now: datetime) -> dict[int, datetime]:
    rows = (Delivery.objects.filter(notification__user_id__in=user_ids, notification__kind=TURN, channel=EMAIL,
                                    status=Delivery.Status.SENT, sent_at__gte=now - TURN_MAIL_GAP)
            .values("notification__user_id").annotate(last=Max("sent_at")))
    return {r["notification__user_id"]: r["last"] for r in rows}


SEND, SKIP = "send", "skip"


def decide(came: float, wait: float, now: float, here, match_id: int | None, capped_until: float | None = None):
    """The rule for one due notice whose turn is still open and that is unread (epoch seconds;
    ``here``: the user's matches.presence.Presence). Returns SKIP (seen at the table), SEND, or
    when to look again. Pure: ``bench/run.py attention`` runs the same rule over a simulated week."""
    if match_id and here.seen_match_since(match_id, came):
        return SKIP  # the match's page was open after it came
    if here.present:
        return now + max(wait, RECHECK.total_seconds())
    due = max(came, here.left_at) + wait  # from the later of "it came" and "the user left"
    if due > now:
        return due
    if capped_until is not None and capped_until > now:
        return capped_until
    return SEND


def release(now: datetime | None = None, user_ids=None, limit: int = 2000) -> dict:
    """Decide the deferred deliveries that are due (module docstring). Returns counts."""
    from matches import presence

    now = now or timezone.now()
    stamp = now.timestamp()
    counts = {"released": 0, "skipped": 0, "later": 0}
    with transaction.atomic():
        due = Delivery.objects.filter(status=Delivery.Status.DEFERRED, not_before__lte=now)
        if user_ids is not None:
            due = due.filter(notification__user_id__in=list(user_ids))
        rows = list(due.select_for_update(of=("self",), skip_locked=True)
                    .select_related("notification__user__profile").order_by("not_before")[:limit])
        if not rows:
            return counts
        users = {d.notification.user_id for d in rows}
        prefs = {p.user_id: p for p in Preference.objects.filter(user_id__in=users)}
        here = presence.read(users, stamp)
        wanted, gone = still_waiting(rows)
        gone_ids = {d.pk for d in gone}
        near = deadlines((d.notification.match_id, d.notification.user_id) for d in wanted
                         if d.notification.kind == TURN and d.channel == EMAIL)
        last_mail = _last_turn_mails(users, now)
        released, later = [], {}
        for d in wanted:
            n = d.notification
            pref = prefs.get(n.user_id) or Preference(user_id=n.user_id)
            capped = None
            if n.kind == TURN and d.channel == EMAIL and n.user_id in last_mail:
                deadline = near.get((n.match_id, n.user_id))
                if deadline is None or deadline - now > DEADLINE_NEAR:
                    capped = (last_mail[n.user_id] + TURN_MAIL_GAP).timestamp()
            verdict = decide(n.created_at.timestamp(), delay(pref, d.channel).total_seconds(), stamp,
                             here[n.user_id], n.match_id, capped)
            if verdict == SKIP:
                gone_ids.add(d.pk)
            elif verdict != SEND:
                later[d.pk] = datetime.fromtimestamp(verdict, tz=now.tzinfo)
            elif held := quiet_until(pref, user_tz(n.user), now):
                later[d.pk] = held
            else:
                released.append(d)
        released += _joining(released, here, now)
        if gone_ids:
            Delivery.objects.filter(pk__in=gone_ids).update(status=Delivery.Status.SKIPPED)
        for pk, when in later.items():
            Delivery.objects.filter(pk=pk).update(not_before=when)
        if released:
            Delivery.objects.filter(pk__in=[d.pk for d in released]).update(
                status=Delivery.Status.PENDING, not_before=now)
            pairs = [(d.pk, d.channel) for d in released]
            transaction.on_commit(lambda: enqueue(pairs))
    counts.update(released=len(released), skipped=len(gone_ids), later=len(later))
    return counts


def _joining(released: list, here: dict, now: datetime) -> list:
    """A turn mail that goes now takes the user's other waiting turns along (still open, unread,
    not seen, not yet due): one mail now instead of more within the hour."""
    users = {d.notification.user_id for d in released if d.notification.kind == TURN and d.channel == EMAIL}
    if not users:
        return []
    taken = {d.pk for d in released}
    more = list(Delivery.objects.filter(status=Delivery.Status.DEFERRED, channel=EMAIL, notification__kind=TURN,
                                        notification__user_id__in=users, not_before__gt=now)
                .exclude(pk__in=taken).select_for_update(of=("self",), skip_locked=True)
                .select_related("notification"))
    wanted, _gone = still_waiting(more)
    return [d for d in wanted if not (d.notification.match_id and here[d.notification.user_id].seen_match_since(
        d.notification.match_id, d.notification.created_at.timestamp()))]


def release_soon(user_ids) -> None:
    """After commit, for notices written with no delay: decide them now, not at the next flush
    (tasks.queue_release queues the ``release`` task)."""
    signals.release_due.send(sender=None, user_ids=sorted(user_ids))
