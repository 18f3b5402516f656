"""Der Orden's retired "never ask me" (folded into the reactions order): a match whose log
holds it still replays, and nobody else reads it in the log: the API log shows others a neutral
`{"type": "setting"}` and no line; the seat's own log keeps it."""
import pytest
from django.db import transaction
from rest_framework.test import APIClient

from games import registry
from matches import services
from matches.models import LogEntry, Match

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_old_log_with_never_ask_replays_and_stays_private(make_user):
    users = [make_user("ada"), make_user("bert")]
    with transaction.atomic():
        match = services.start_match(game="orden", entrants=[{"user": u, "bot": ""} for u in users],
                                     options={}, seed=11)
    seats = {s.seat: s.user for s in match.seats.all()}
    cur = match.state["cur"]
    other = 1 - cur
    assert {"type": "never_ask", "value": True} not in registry.get("orden").engine.legal_actions(match.state, cur)
    # what an old match holds (the action was offered before the orders)
    services.submit_action(match.pk, seats[cur], {"type": "never_ask", "value": True}, match.version)
    match = Match.objects.get(pk=match.pk)
    assert match.state["p"][cur]["never"] is True
    assert services.replay(match) == match.state
    entry = LogEntry.objects.get(match=match, action__type="never_ask")

    def log_for(user):
        c = APIClient()
        c.force_authenticate(user)
        rows = c.get(f"/api/matches/{match.pk}/log/").json()
        return next(r for r in (rows if isinstance(rows, list) else rows["log"]) if r["seq"] == entry.seq)

    theirs = log_for(seats[other])
    assert theirs["action"] == {"type": "setting"}
    assert "never" not in str(theirs).lower() and "nie " not in str(theirs).lower()
    mine = log_for(seats[cur])
    assert mine["action"] == {"type": "never_ask", "value": True}
