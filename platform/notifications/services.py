"""notify(): the one entry point other apps call. It records the notification (the centre),
creates one Delivery per channel the user wants, and after commit enqueues the sends and
pushes the unread count over the websocket.

    from notifications.services import notify
    notify(user, "tournament_paired", {"tournament": "Herbst", "round": 2, **match_context(match_id, user.id)},
           key=f"paired:{tournament_id}:{round}", match_id=match_id)

Direction: this app reacts to matches (it reads matches to word its notices), so it imports
matches and matches never imports it. Inside the app, ``tasks`` runs this module; the sends this
module makes due leave through ``outbox`` (and ``signals``) without importing the tasks.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.verification import is_verified
from core import plainsql

from . import attention, conf
from .kinds import EMAIL, KINDS, PUSH, level_allows, text
from .models import Delivery, Notification, Preference, PushSubscription
from .outbox import enqueue
from .recipients import quiet_until, user_lang, user_tz

logger = logging.getLogger(__name__)


# --- context helpers ---------------------------------------------------------------------------------
def match_context(match_id: int, user_id: int | None, *, game: str | None = None,
                  names: list[tuple[int | None, str]] | None = None) -> dict:
    """What a match notification names: the game, the opponents, the link. ``game`` (the slug)
    and ``names`` (``(user id, name)`` of every seat in seat order) if the caller knows them."""
    from games import registry
    from matches.models import Match, Seat

    if game is None:
        game = Match.objects.only("id", "game").get(pk=match_id).game
    if names is None:
        names = [(s.user_id, s.name) for s in Seat.objects.filter(match_id=match_id).select_related("user")]
    meta = registry.get(game).meta
    opponents = [name for seat_user, name in names if seat_user != user_id]
    return {"match": match_id, "game": game, "game_name_en": meta.name_en, "game_name_de": meta.name_de,
            "opponents": opponents, "url": f"/matches/{match_id}/"}


# --- preferences -------------------------------------------------------------------------------------
def preferences(user) -> Preference:
    pref, _ = Preference.objects.get_or_create(user=user)
    return pref


def channels_for(pref: Preference, kind: str) -> list[str]:
    default = KINDS.get(kind, ("", [EMAIL, PUSH]))[1]
    return list(pref.channels.get(kind, default))


# --- notify -------------------------------------------------------------------------------------------
_UNKNOWN = object()


def notify(user, kind: str, context: dict, *, key: str, match_id: int | None = None,
           now: datetime | None = None, pref=_UNKNOWN, push_subscriptions=None,
           savepoint: bool = True, level=_UNKNOWN) -> Notification | None:
    """Record and deliver a notification once per (user, key); None if it already exists, or
    if the user's seat in ``match_id`` does not want this kind (its ``notify_level``: muted
    sends nothing, no centre entry either).

    What the caller has read already need not be read again: ``pref`` (the user's Preference,
    None if they have none), ``push_subscriptions`` (their PushSubscriptions) and ``level``
    (their seat's notify_level in the match, None without a seat). With
    ``savepoint=False`` it runs in the caller's transaction without a savepoint: a database
    error then fails the caller's transaction (nothing else can fail once it writes)."""
    prepared = _prepare(user, kind, context, key=key, match_id=match_id, now=now, pref=pref,
                        push_subscriptions=push_subscriptions, level=level)
    if prepared is None:
        return None
    with transaction.atomic(savepoint=savepoint):
        if not _write(prepared):
            return None
        _announce([prepared])
    return prepared.notification


@dataclass(eq=False)  # compared by identity
class _Prepared:
    """A notification, its deliveries and its live frame, built before anything is written."""
    notification: Notification
    deliveries: list
    frame: dict


def match_level(user_id: int, match_id: int) -> str | None:
    """The user's per-match setting (their seat's notify_level), None if they hold no seat."""
    from matches.models import Seat

    return Seat.objects.filter(match_id=match_id, user_id=user_id).values_list("notify_level", flat=True).first()


def _prepare(user, kind: str, context: dict, *, key: str, match_id: int | None, now: datetime | None,
             pref, push_subscriptions, level=_UNKNOWN) -> _Prepared | None:
    """Everything that is not a write: once it writes, only the database can fail."""
    if user is None or not user.is_active:
        return None
    if match_id is not None:
        if level is _UNKNOWN:
            level = match_level(user.pk, match_id)
        if not level_allows(level, kind):
            return None
    now = now or timezone.now()
    frame = {"text": text(kind, context, user_lang(user)), "url": context.get("url", "/notifications/"),
             "kind": kind}
    if pref is _UNKNOWN:
        pref = Preference.objects.filter(user=user).first()
    pref = pref or Preference(user=user)  # no row: defaults
    wanted = channels_for(pref, kind)
    held = quiet_until(pref, user_tz(user), now)
    deliveries = []
    if EMAIL in wanted and user.email and is_verified(user):  # never to an unconfirmed address
        status = Delivery.Status.DIGEST if pref.digest else (Delivery.Status.HELD if held else Delivery.Status.PENDING)
        status, not_before = attention.initial(kind, EMAIL, pref, now) or (status, held)
        deliveries.append(Delivery(channel=EMAIL, status=status, not_before=not_before))
    if PUSH in wanted:
        if push_subscriptions is None:
            push_subscriptions = PushSubscription.objects.filter(user=user)
        status, not_before = attention.initial(kind, PUSH, pref, now) or (
            Delivery.Status.HELD if held else Delivery.Status.PENDING, held)
        for sub in push_subscriptions:
            deliveries.append(Delivery(channel=PUSH, subscription=sub, not_before=not_before, status=status))
    notification = Notification(user=user, kind=kind, match_id=match_id, data=context, key=key[:200])
    return _Prepared(notification, deliveries, frame)


def _write(prepared: _Prepared) -> bool:
    """The notification and its deliveries, unless it exists (False then)."""
    notification, deliveries = prepared.notification, prepared.deliveries
    if len(deliveries) == 1 and connection.vendor == "postgresql":
        # The usual case (one e-mail): both rows in one statement.
        return bool(plainsql.insert_many_unless_conflict_with([notification], deliveries, "notification_id",
                                                              ("user_id", "key")))
    if not _insert_once(notification):
        return False
    for delivery in deliveries:
        delivery.notification = notification
    if len(deliveries) == 1:
        plainsql.insert(deliveries[0])  # the ORM cost more than the statement
    elif deliveries:
        Delivery.objects.bulk_create(deliveries)  # sets the ids (PostgreSQL, SQLite)
    return True


def _announce(written: list[_Prepared]) -> None:
    """After commit: the sends that are due, and each user's unread count with the newest line."""
    due = [(d.pk, d.channel) for p in written for d in p.deliveries if d.status == Delivery.Status.PENDING]
    if due:
        transaction.on_commit(lambda: enqueue(due))
    # Deferred with no delay ("at once"): decided now (present? seen?), not at the next flush.
    now = timezone.now()
    at_once = {p.notification.user_id for p in written for d in p.deliveries
               if d.status == Delivery.Status.DEFERRED and d.not_before <= now}
    if at_once:
        transaction.on_commit(lambda: attention.release_soon(at_once))
    frames = {p.notification.user_id: p.frame for p in written}  # per user, the newest line
    if len(frames) == 1:
        (user_id, frame), = frames.items()
        transaction.on_commit(lambda: push_live(user_id, frame))
    elif frames:
        transaction.on_commit(lambda: push_live_many(frames))


def notify_many(items: list[dict], *, now: datetime | None = None) -> int:
    """``notify`` for several notifications in the caller's transaction (no savepoint: a
    database error fails it). Each item holds notify's arguments (``user``, ``kind``,
    ``context``, ``key``, optional ``match_id``, ``pref``, ``push_subscriptions``, ``level``). One that
    cannot be built (its text, say) is logged and left out. On PostgreSQL those with at most
    one delivery (the usual: one e-mail) are written in one statement. Returns how many were new."""
    prepared = []
    for item in items:
        try:
            p = _prepare(item["user"], item["kind"], item["context"], key=item["key"],
                         match_id=item.get("match_id"), now=now, pref=item.get("pref", _UNKNOWN),
                         push_subscriptions=item.get("push_subscriptions"), level=item.get("level", _UNKNOWN))
        except Exception:  # nothing is written yet: the others go on
            logger.exception("notification %s for user %s", item.get("kind"), getattr(item.get("user"), "pk", None))
            continue
        if p is not None:
            prepared.append(p)
    written = []
    with transaction.atomic(savepoint=False):
        together = [p for p in prepared if len(p.deliveries) <= 1] if connection.vendor == "postgresql" else []
        if together:
            inserted = plainsql.insert_many_unless_conflict_with(
                [p.notification for p in together], [p.deliveries[0] if p.deliveries else None for p in together],
                "notification_id", ("user_id", "key"))
            written += [together[i] for i in inserted]
        written += [p for p in prepared if p not in together and _write(p)]
        _announce(written)
    return len(written)


def _insert_once(notification: Notification) -> bool:
    """INSERT the notification unless (user, key) exists; True (and its pk set) if inserted.
    One statement where the database can say so (ON CONFLICT DO NOTHING RETURNING: PostgreSQL,
    SQLite >= 3.35), else an insert in a savepoint that may fail on the unique key."""
    if plainsql.can_insert_returning():
        return plainsql.insert(notification, unless_conflict=True)
    try:
        with transaction.atomic():
            notification.save(force_insert=True)
    except IntegrityError:
        return False
    return True


def push_live(user_id: int, extra: dict | None = None) -> None:
    """The unread count (and the newest line: ``extra``) to every open page of the user."""
    from channels.layers import get_channel_layer
    from matches.live import user_group

    from core.livesend import group_send

    layer = get_channel_layer()
    if layer is None:
        return
    frame = {"type": "notification", "unread": unread_groups(user_id), **(extra or {})}
    try:
        group_send(layer, user_group(user_id), {"type": "match.frame", "text": json.dumps(frame)})
    except Exception:  # best effort: the page shows the count on its next load
        logger.warning("live notification to user %s failed", user_id, exc_info=True)


def push_live_many(frames: dict[int, dict]) -> None:
    """``push_live`` for several users: their unread counts in one query, the frames sent together."""
    from channels.layers import get_channel_layer
    from matches.live import user_group

    from core.livesend import group_send_soon

    layer = get_channel_layer()
    if layer is None or not frames:
        return
    counts = unread_counts(list(frames), groups=True)
    group_send_soon(layer, [(user_group(user_id), {"type": "match.frame", "text": json.dumps(
        {"type": "notification", "unread": counts.get(user_id, 0), **extra})}) for user_id, extra in frames.items()])


# --- the centre ----------------------------------------------------------------------------------------
def unread_count(user_id: int) -> int:
    """Unread notifications (the API's ``unread``)."""
    return unread_counts([user_id]).get(user_id, 0)


def unread_groups(user_id: int) -> int:
    """What the bell shows, after every notification (its live frame) and on every page: the
    centre's entries with something new (a match's unread notifications are one entry, as the
    centre groups them), so the bell and the centre agree."""
    return unread_counts([user_id], groups=True).get(user_id, 0)


def unread_counts(user_ids: list[int], groups: bool = False) -> dict[int, int]:
    """The unread counts of several users in one query (users without unread ones are missing);
    ``groups``: counted as the centre groups them (one per match, one per other notification).
    Plain SQL: the ORM's count() cost more CPU than the query (the index notification_user_read
    answers it)."""
    from django.db import connection

    qn = connection.ops.quote_name
    # One array on PostgreSQL: the same statement text for any count (psycopg prepares it).
    among, params = ("= ANY(%s)", [list(user_ids)]) if connection.vendor == "postgresql" else (
        f"IN ({', '.join(['%s'] * len(user_ids))})", list(user_ids))
    match = qn("match_id")
    what = (f"COUNT(DISTINCT {match}) + SUM(CASE WHEN {match} IS NULL THEN 1 ELSE 0 END)" if groups
            else "COUNT(*)")
    with plainsql.cursor() as cursor:
        cursor.execute(f"SELECT {qn('user_id')}, {what} FROM {qn(Notification._meta.db_table)} "
                       f"WHERE {qn('user_id')} {among} AND {qn('read_at')} IS NULL GROUP BY {qn('user_id')}", params)
        return {user: int(n) for user, n in cursor.fetchall()}


def mark_read(user, ids: list[int] | None = None, now: datetime | None = None) -> int:
    qs = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        qs = qs.filter(pk__in=ids)
    changed = qs.update(read_at=now or timezone.now())
    if changed:
        transaction.on_commit(lambda: push_live(user.id))
    return changed


def mark_read_by_key(user, key: str) -> None:
    """Reads the notification of one event (an invitation answered elsewhere)."""
    ids = list(Notification.objects.filter(user=user, key=key, read_at__isnull=True).values_list("pk", flat=True))
    if ids:
        mark_read(user, ids)


def mark_match_read(user, match_id: int, kinds=None) -> None:
    """Opening a match reads its notifications (reading its chat: those of ``kinds``)."""
    unread = Notification.objects.filter(user=user, match_id=match_id, read_at__isnull=True)
    if kinds is not None:
        unread = unread.filter(kind__in=list(kinds))
    ids = list(unread.values_list("pk", flat=True))
    if ids:
        mark_read(user, ids)


# --- unsubscribe ---------------------------------------------------------------------------------------
def unsubscribe(user, kind: str) -> None:
    """No more e-mails of this kind ("all": no e-mails at all)."""
    pref = preferences(user)
    kinds = list(KINDS) if kind == "all" else [kind]
    channels = dict(pref.channels)
    for k in kinds:
        channels[k] = [c for c in channels_for(pref, k) if c != EMAIL]
    pref.channels = channels
    pref.save(update_fields=["channels"])


# --- periodic job: quiet hours end, stuck sends (the digests: tasks.digests_due) -------------------------
def flush(now: datetime | None = None, limit: int = 2000) -> int:
    """Release held deliveries whose quiet hours are over; decide the deferred ones that are due
    (attention.release: also those that fell due while the services were down); re-enqueue
    PENDING ones whose task was lost (broker restarted, enqueue failed). Sending twice is
    impossible (see mail.send_delivery). Returns how many sends were queued."""
    now = now or timezone.now()
    try:
        decided = attention.release(now)["released"]
    except Exception:  # Redis (presence) away: the deferred ones wait for the next flush, the rest goes on
        logger.warning("deferred notices not decided now", exc_info=True)
        decided = 0
    released = list(Delivery.objects.filter(status=Delivery.Status.HELD, not_before__lte=now)
                    .values_list("pk", "channel")[:limit])
    if released:
        Delivery.objects.filter(pk__in=[pk for pk, _ in released], status=Delivery.Status.HELD).update(
            status=Delivery.Status.PENDING)
    # A delivery that failed MAX_ATTEMPTS times is given up, not re-queued every minute forever.
    Delivery.objects.filter(status=Delivery.Status.PENDING, attempts__gte=conf.MAX_ATTEMPTS).update(
        status=Delivery.Status.FAILED)
    # Stuck: pending this long since it became due (created, or released at not_before).
    cut = now - timedelta(minutes=conf.STUCK_MINUTES)
    stuck = list(Delivery.objects.filter(status=Delivery.Status.PENDING)
                 .filter(Q(not_before__isnull=True, created_at__lt=cut) | Q(not_before__lt=cut))
                 .values_list("pk", "channel")[:limit])
    due = sorted(set(released) | set(stuck))
    enqueue(due)
    return len(due) + decided
