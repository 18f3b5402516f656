"""Rates a finished match once: everyone seated by a user, ordered by their places
(resigned and timed-out players are placed last by the match outcome)."""
from __future__ import annotations

from django.apps import apps
from django.db import IntegrityError, transaction
from django.utils import timezone

from matches.models import LogEntry, Match

from . import skill
from .dbwait import give_way
from .models import RatedMatch, Rating, RatingChange
from .organizers import tournament_allows_rating


def rate_match(match_id: int) -> bool:
    """Idempotent: the RatedMatch row (primary key = match) is written first in the same
    transaction, so a second call (a replayed finish, a retried task) changes nothing.
    Returns True if ratings changed."""
    try:
        with transaction.atomic():
            give_way()
            return _rate(match_id)
    except IntegrityError:  # a concurrent call rated it first
        return False


def _leavers(match: Match, humans: list, places: dict) -> list[tuple[int, int]]:
    """Players whose seat a substitute took over (``seat`` log entries). The seat's place is the
    substitute's: they are rated for the match as a whole, as if they had sat there from the
    start (their rating counts from their joining: a match they joined counts like one they
    began). The leaver's departure counts as today's resignation or timeout: placed behind
    every seat, a later leaver ahead of an earlier one."""
    seated = {u for u, _ in humans}
    last = max(places.values(), default=0)
    leavers: list[int] = []
    for events in LogEntry.objects.filter(match_id=match.pk, kind=LogEntry.Kind.SEAT).order_by("-seq") \
            .values_list("events", flat=True):
        for event in events or []:
            left = event.get("left") if event.get("type") == "substitute" else None
            if left and left not in seated and left not in leavers:
                leavers.append(left)
    return [(user_id, last + 1 + i) for i, user_id in enumerate(leavers)]


def _hot_seat(match_id: int) -> bool:
    """A game author's hot-seat match (the optional authoring app, looked up by name: ratings
    does not depend on it)."""
    if not apps.is_installed("authoring"):
        return False
    return apps.get_model("authoring", "HotSeat").objects.filter(match_id=match_id).exists()


def _rate(match_id: int) -> bool:
    match = Match.objects.filter(pk=match_id).only("id", "game", "status", "outcome", "finished_at").first()
    if match is None or match.status != Match.Status.FINISHED or RatedMatch.objects.filter(match_id=match_id).exists():
        return False
    record = RatedMatch.objects.create(match=match, game=match.game)  # claims the match (unique)
    places = {p["seat"]: p["place"] for p in (match.outcome or {}).get("placements", [])}
    humans = [(s.user_id, places[s.seat]) for s in match.seats.filter(user__isnull=False) if s.seat in places]
    humans = sorted(humans + _leavers(match, humans, places), key=lambda x: x[0])
    reason = ""
    if len(humans) < 2:
        reason = "fewer_than_two_people"
    elif _hot_seat(match_id):
        reason = "hot_seat"  # one author playing every seat (authoring's stand-ins): no one's skill
    elif not tournament_allows_rating(match):
        reason = "tournament_unrated"
    if reason:
        record.rated, record.reason = False, reason
        record.save(update_fields=["rated", "reason"])
        return False
    user_ids = [u for u, _ in humans]
    mu0, sigma0 = skill.initial()
    Rating.objects.bulk_create([Rating(user_id=u, game=match.game, mu=mu0, sigma=sigma0,
                                       shown=skill.display(mu0, sigma0)) for u in user_ids],
                               ignore_conflicts=True)
    # Locked in user order, so two matches finishing at once cannot deadlock or lose an update.
    ratings = {r.user_id: r for r in Rating.objects.select_for_update()
               .filter(game=match.game, user_id__in=user_ids).order_by("user_id")}
    before = [(ratings[u].mu, ratings[u].sigma) for u in user_ids]
    after = skill.rate(before, [p for _, p in humans])
    at = match.finished_at or record.at
    changes, now = [], timezone.now()
    for (user_id, place), (mu_b, sigma_b), (mu_a, sigma_a) in zip(humans, before, after):
        r = ratings[user_id]
        shown_before = r.shown
        r.mu, r.sigma, r.shown = mu_a, sigma_a, skill.display(mu_a, sigma_a)
        r.games += 1
        r.wins += place == 1
        r.updated_at = now
        changes.append(RatingChange(user_id=user_id, match=match, game=match.game, place=place,
                                    mu_before=mu_b, sigma_before=sigma_b, mu_after=mu_a, sigma_after=sigma_a,
                                    shown_before=shown_before, shown_after=r.shown, at=at))
    Rating.objects.bulk_update(list(ratings.values()), ["mu", "sigma", "shown", "games", "wins", "updated_at"])
    RatingChange.objects.bulk_create(changes)
    return True
