"""One writer per match: simultaneous submissions of the same move apply exactly once."""
import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from matches.models import LogEntry
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)

N = 20


def test_simultaneous_submissions_of_one_move(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)
    action = {"type": "play", "card": match.state["hands"][match.to_move[0]][0]}
    barrier = threading.Barrier(N)
    statuses, errors = [], []

    def submit():
        try:
            client = APIClient()
            client.force_authenticate(mover)
            barrier.wait()
            r = client.post(f"/api/matches/{match.pk}/actions/", {"action": action, "version": 0}, format="json")
            statuses.append(r.status_code)
        except Exception as exc:  # noqa: BLE001 - the assertion below reports it
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(N)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert sorted(statuses) == [200] + [409] * (N - 1), statuses
    match.refresh_from_db()
    assert match.version == 1 and LogEntry.objects.filter(match=match).count() == 1
