"""A host adds Alchemist's heuristic bot to an invitation through the page, and it plays."""
import pytest

from games.alchemist import PLUGIN
from matches import services
from matches.models import Match
from tests.conftest import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_host_adds_a_heuristic_bot_through_the_invitation_page(client, make_user, celery_worker):
    host = make_user("abigail")
    client.force_login(host)
    r = client.post("/invitations/new/alchemist/", {"players": 2, "move_days": 3, "bots": 1})
    assert r.status_code == 302
    match = Match.objects.get()
    assert match.game == "alchemist" and match.options == {"no_schools": False}
    assert list(match.seats.order_by("seat").values_list("bot", flat=True)).count("heuristic") == 1
    me = match.seats.get(user=host).seat

    def my_turn():
        match.refresh_from_db()
        return match.status == "finished" or match.to_move == [me]

    for _ in range(3):  # each time the bot answers before it is my turn again
        wait_for(my_turn)
        if match.status == "finished":
            break
        action = PLUGIN.engine.legal_actions(match.state, me)[0]
        services.submit_action(match.pk, host, action, match.version)
    wait_for(my_turn)
    bot_seat = 1 - me
    assert match.log.filter(seat=bot_seat, kind="action").count() >= 2
    if celery_worker is not None:  # the worker's after-commit work must end before the flush
        from config.celery import app

        wait_for(lambda: not any((app.control.inspect(timeout=0.5).active() or {"": [1]}).values()))
