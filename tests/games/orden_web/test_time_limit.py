"""Der Orden's time limit (invitation option deadline_days): when it has passed, the clock
sweep ends the match and the tie-break list decides the places (spec orden.md)."""
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from clocks import services as clocks
from games import registry
from matches import services
from matches.models import LogEntry, Match
from matches.presenters import log_lines, seat_names

pytestmark = pytest.mark.django_db


def start(users, **options):
    with transaction.atomic():
        return services.start_match(game="orden", entrants=[{"user": u, "bot": "", "choices": {}} for u in users],
                                    options=options, seed=5)


def test_the_match_ends_at_its_time_limit_by_the_tie_break(make_user):
    users = [make_user(f"p{i}") for i in range(3)]
    match = start(users, deadline_days=7)
    other = start(users)  # no time limit: untouched
    started = match.created_at
    assert services.end_overdue_matches(now=started + timedelta(days=6, hours=23)) == 0

    swept = clocks.sweep(now=started + timedelta(days=7, minutes=1))
    assert swept.get("time_limits") == 1
    match.refresh_from_db()
    other.refresh_from_db()
    assert match.status == Match.Status.FINISHED and other.status == Match.Status.ACTIVE
    scores = registry.get("orden").tiebreak_scores(match.state)
    places = {p["seat"]: p["place"] for p in match.outcome["placements"]}
    # Better tie-break score, better place; equal ones go by „4. Los.“: no
    # shared places, and every seat carries its rank for league scoring.
    assert sorted(places.values()) == [1, 2, 3]
    assert all(scores[a] >= scores[b] for a in places for b in places if places[a] < places[b])
    assert all(p["rank"] and p["score"] is not None for p in match.outcome["placements"])
    assert match.outcome["ended"] == "deadline"
    assert sorted(s.place for s in match.seats.all()) == sorted(places.values())
    end = LogEntry.objects.get(match=match, seq=match.version)
    assert end.kind == LogEntry.Kind.END
    text = log_lines(registry.get("orden"), match, [end], None, "de", seat_names(list(match.seats.all())))[0]["texts"]
    assert "Tiebreak" in text[0]
    assert services.end_overdue_matches(now=started + timedelta(days=30)) == 0  # once
    assert services.replay(match) == match.state  # the log still replays to the snapshot


def test_moves_after_the_end_are_refused(make_user):
    from matches.errors import MatchOver

    users = [make_user("a"), make_user("b")]
    match = start(users, deadline_days=1)
    services.end_by_tiebreak(match.pk)
    match.refresh_from_db()
    mover = match.seats.get(seat=registry.get("orden").engine.to_move(match.state)[0]).user
    with pytest.raises(MatchOver):
        services.submit_action(match.pk, mover, {"type": "end_turn"}, match.version)
    with pytest.raises(MatchOver):
        services.end_by_tiebreak(match.pk)
    assert timezone.now() >= match.finished_at


@pytest.mark.parametrize("language, zone, expected", [
    # 1 March 2027 22:30 UTC + 7 days, shown in the user's own time zone
    ("de", "Europe/Berlin", "Endet am 08.03.2027 23:30 mit der Zusatzwertung bei Gleichstand (Zeitlimit)"),
    ("en", "America/New_York", "Ends by tie-break on 2027-03-08 17:30 (time limit)"),
])
def test_the_match_page_says_when_the_time_limit_ends_the_match(make_user, language, zone, expected):
    from datetime import datetime, timezone as dt_timezone

    from django.test import Client

    users = [make_user("a"), make_user("b")]
    users[0].profile.language, users[0].profile.timezone = language, zone
    users[0].profile.save()
    match = start(users, deadline_days=7)
    untimed = start(users)
    Match.objects.filter(pk=match.pk).update(created_at=datetime(2027, 3, 1, 22, 30, tzinfo=dt_timezone.utc))
    client = Client()
    client.force_login(users[0])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="time-limit"' in page and expected in page
    assert 'id="time-limit"' not in client.get(f"/matches/{untimed.pk}/").content.decode()
    services.end_by_tiebreak(match.pk)  # over: nothing left to announce
    assert 'id="time-limit"' not in client.get(f"/matches/{match.pk}/").content.decode()
