"""Follow-ups: nothing lost. Every committed change of a match is followed by its receivers
(clocks, notifications, ratings, summaries, tournaments); this module runs them, records how
far they got, and redoes what was missed.

- The record of a change is the match row itself: its committed ``version`` (and status,
  ``to_move``) say what happened, so the move writes nothing more. ``FollowUp`` (one row per
  match) says how far the follow-ups went: after a batch, one statement raises each match's
  row to the batch's version.
- Receivers are isolated: each runs on its own; one that raises is logged and named in the
  row's ``owed`` (with the version it failed at), the others go on. Receivers are idempotent
  (per version, or by an idempotency row: ``RatedMatch``, ``GameSummary``, the table's result,
  the notification's ``(user, key)``), so running one again is harmless: exactly once in effect.
- ``sweep`` (Celery beat every ``SWEEP_EVERY_S``; the clock thread on the embedded default)
  redoes (a) matches whose row is behind their version for more than ``LAG_S`` (a batch lost
  with a killed process, a broker that lost it, a worker that died) with all receivers, from
  the match's current state, and (b) owed receivers alone, with backoff.

``followup_backlog()`` is the figure for health checks and metrics.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from . import signals
from .models import FollowUp, Match

logger = logging.getLogger(__name__)

LAG_S = 10  # a change this much older than its follow-up is taken as lost (a batch takes < 1 s)
SWEEP_EVERY_S = 30.0
# Finished matches are looked at this long after their last change (active ones always).
FINISHED_HORIZON = timedelta(days=7)
RETRY_MAX = timedelta(hours=1)
SWEEP_LIMIT = 500


class PartlyFailed(Exception):
    """Raised by a batch receiver (``match_changes``) that did some changes and failed others:
    only ``changes`` are owed (the receiver logged why)."""

    def __init__(self, changes: list[dict]):
        super().__init__(f"{len(changes)} changes failed")
        self.changes = changes


def receiver_name(fn) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


def _receivers(signal):
    # Django's own list of live receivers (send_robust walks the same list); we call them one
    # by one so that one can be run alone again and a failure is known by name.
    sync_receivers, _async = signal._live_receivers(Match)
    return sync_receivers


def _call(signal, only, on_failure, **kwargs) -> None:
    for fn in _receivers(signal):
        name = receiver_name(fn)
        if only is not None and name not in only:
            continue
        try:
            fn(signal=signal, sender=Match, **kwargs)
        except PartlyFailed as failed:
            on_failure(name, failed.changes)
        except Exception:
            logger.exception("follow-up receiver %s failed", name)
            on_failure(name, None)


def run(changes: list[dict], only: set[str] | None = None) -> dict[tuple[int, int], set[str]]:
    """The receivers of ``changes`` (dicts of ``match_changed``'s arguments, in commit order):
    ``match_changes`` once for all, then each one's ``match_changed`` (and ``match_finished``).
    ``only``: run just these receivers (the sweep's retry). Returns the failures:
    (match id, version) -> receiver names."""
    failed: dict[tuple[int, int], set[str]] = {}

    def fail(name, which):
        for change in changes if which is None else which:
            failed.setdefault((change["match_id"], change["version"]), set()).add(name)

    _call(signals.match_changes, only, fail, changes=changes)
    for change in changes:
        def fail_this(name, _which, change=change):
            fail(name, [change])

        _call(signals.match_changed, only, fail_this, **change)
        if change["status"] == Match.Status.FINISHED:
            _call(signals.match_finished, only, fail_this, match_id=change["match_id"])
    return failed


def follow(changes: list[dict]) -> int:
    """Run the receivers of a batch and record the progress (one statement when nothing failed).
    Returns how many changes went through without a failure."""
    failed = run(changes)
    try:
        _advance(changes)
        if failed:
            _owe(failed)
    except Exception:  # the sweep finds the rows behind and redoes them
        logger.exception("follow-up progress of %d changes not recorded", len(changes))
    return len(changes) - len({key for key in failed})


def _advance(changes: list[dict]) -> None:
    """Each match's row up to the newest version of the batch (never down: batches may overlap)."""
    newest: dict[int, int] = {}
    for change in changes:
        newest[change["match_id"]] = max(change["version"], newest.get(change["match_id"], -1))
    if not newest:  # an empty batch: nothing to record (an empty VALUES list is a syntax error)
        return
    table = FollowUp._meta.db_table
    now = timezone.now()
    rows = ", ".join(["(%s, %s, '{}', 0, %s)"] * len(newest))
    params = [x for match_id, version in newest.items() for x in (match_id, version, now)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (match_id, version, owed, attempts, updated_at) VALUES {rows} "
            f"ON CONFLICT (match_id) DO UPDATE SET updated_at = excluded.updated_at, version = CASE "
            f"WHEN excluded.version > {table}.version THEN excluded.version ELSE {table}.version END", params)


def _owe(failed: dict[tuple[int, int], set[str]], now: datetime | None = None) -> None:
    """Rare: name the failed receivers in their matches' rows (merged with what was owed)."""
    now = now or timezone.now()
    by_match: dict[int, dict[str, int]] = {}
    for (match_id, version), names in failed.items():
        for name in names:
            owed = by_match.setdefault(match_id, {})
            owed[name] = min(version, owed.get(name, version))
    with transaction.atomic():
        for row in FollowUp.objects.select_for_update().filter(match_id__in=by_match):
            for name, version in by_match[row.match_id].items():
                row.owed[name] = min(version, row.owed.get(name, version))
            row.owed_since = row.owed_since or now
            row.retry_at = row.retry_at or now + timedelta(seconds=LAG_S)
            row.save(update_fields=["owed", "owed_since", "retry_at", "updated_at"])


# --- the sweep ------------------------------------------------------------------------------------
def _behind(now: datetime):
    """Matches whose follow-ups lag behind their committed version."""
    recent = ~Q(status=Match.Status.FINISHED) | Q(updated_at__gte=now - FINISHED_HORIZON)
    return Match.objects.filter(recent).filter(Q(followup__isnull=True) | Q(followup__version__lt=F("version")))


def _change_of(match: Match, start: bool) -> dict:
    """The follow-up of a match's current state. ``start``: the start's follow-up was missed too
    (``previous_to_move`` None, as the start sends it: "the match has started")."""
    return dict(match_id=match.pk, version=match.version, status=match.status, to_move=list(match.to_move),
                previous_to_move=None if start else [], game=match.game)


QUEUE_WAIT_KEY = "followups:queue-wait"
QUEUE_WAIT_TTL_S = 120  # a worker that stopped taking batches stops vouching for the queue


def note_queue_wait(seconds: float) -> None:
    """The worker: how long the batch it just took waited in the broker's queue."""
    from django.core.cache import cache

    try:
        cache.set(QUEUE_WAIT_KEY, max(0.0, float(seconds)), QUEUE_WAIT_TTL_S)
    except Exception:  # a measuring aid for the sweep: never fail the follow-up for it
        logger.warning("follow-ups: queue wait not recorded", exc_info=True)


def queue_wait() -> float:
    """How long follow-up batches wait in the queue now (0 when unknown)."""
    from django.core.cache import cache

    try:
        return float(cache.get(QUEUE_WAIT_KEY) or 0.0)
    except Exception:
        return 0.0


def sweep(now: datetime | None = None, lag_s: float | None = None) -> dict:
    """Redo the follow-ups that lag behind (with all receivers) and the owed ones (alone).
    A change counts as lost after ``LAG_S`` plus the queue's current wait: behind a busy worker
    its batch is still on its way (the chaos soak: 250 batches queued, ~20 s; redoing each match
    alone doubled the work of a worker already behind), and a lost one is redone all the same,
    that much later."""
    now = now or timezone.now()
    if lag_s is None:
        lag_s = LAG_S + queue_wait()
    redone = retried = 0
    lagging = list(_behind(now).filter(updated_at__lte=now - timedelta(seconds=lag_s))
                   .select_related("followup").order_by("updated_at")[:SWEEP_LIMIT])
    for match in lagging:
        logger.warning("follow-up of match %s v%s was missed; redoing it", match.pk, match.version)
        follow([_change_of(match, start=not hasattr(match, "followup"))])  # no row: the start's was missed
        redone += 1
    due = list(FollowUp.objects.filter(retry_at__lte=now).order_by("retry_at")
               .values_list("match_id", "retry_at")[:SWEEP_LIMIT])
    for match_id, retry_at in due:
        retried += _retry(match_id, retry_at, now)
    return {"redone": redone, "retried": retried}


def _retry(match_id: int, retry_at: datetime, now: datetime) -> int:
    # Claim the row (a conditional UPDATE: another sweep that got there first wins), then run
    # the owed receivers alone, outside any transaction of ours.
    claimed = FollowUp.objects.filter(match_id=match_id, retry_at=retry_at) \
        .update(retry_at=now + timedelta(minutes=5))
    if not claimed:
        return 0
    row = FollowUp.objects.get(match_id=match_id)
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not row.owed:
        FollowUp.objects.filter(match_id=match_id).update(owed={}, owed_since=None, retry_at=None, attempts=0)
        return 0
    owed = dict(row.owed)
    failed = run([_change_of(match, start=min(owed.values()) == 0)], only=set(owed))
    still = {name for names in failed.values() for name in names}
    with transaction.atomic():
        row = FollowUp.objects.select_for_update().get(match_id=match_id)
        # Keep what failed again and what was newly owed meanwhile; drop what is done now.
        row.owed = {name: v for name, v in row.owed.items() if name in still or name not in owed}
        if row.owed:
            row.attempts = min(row.attempts + 1, 30)
            row.retry_at = now + min(timedelta(seconds=LAG_S * 2 ** row.attempts), RETRY_MAX)
        else:
            row.attempts, row.retry_at, row.owed_since = 0, None, None
        row.save(update_fields=["owed", "attempts", "retry_at", "owed_since", "updated_at"])
    if still:
        logger.warning("follow-up of match %s: %s still failing", match_id, ", ".join(sorted(still)))
    return 1


def followup_backlog(now: datetime | None = None) -> dict:
    """For health checks and metrics: follow-ups not done yet, ``count`` (matches whose
    follow-up lags behind their version, plus matches owed a receiver) and
    ``oldest_seconds`` (how long the oldest has waited; 0 when none)."""
    now = now or timezone.now()
    lagging = _behind(now)
    owed = FollowUp.objects.filter(owed_since__isnull=False)
    oldest = [t for t in (lagging.order_by("updated_at").values_list("updated_at", flat=True).first(),
                          owed.order_by("owed_since").values_list("owed_since", flat=True).first()) if t]
    return {"count": lagging.count() + owed.count(),
            "oldest_seconds": max(0.0, (now - min(oldest)).total_seconds()) if oldest else 0.0}
