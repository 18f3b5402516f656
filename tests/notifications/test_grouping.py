"""A calm centre: a match's notifications are one entry ("3 updates in … since you last
looked"), unread entries are marked, one click leads into the match; the page and the API cost
the same number of queries however many there are. The "your turn" mail comes at most once per
turn (one mail until the player acted), and only for a turn still open when it falls due."""
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from matches import services as match_services
from notifications import services
from notifications.models import Notification
from tests.conftest import wait_for
from tests.notifications.helpers import fall_due
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)


def _play_one(match):
    user = to_move_user(match)
    match.refresh_from_db()
    action = next(a for a in match_services.plugin_for(match).engine.legal_actions(match.state, match.to_move[0])
                  if a["type"] == "play")
    match_services.submit_action(match.pk, user, action, match.version)
    return user


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def _entries(page: str) -> list[str]:
    return re.findall(r'<li class="(unread|)" data-kind="[a-z_]+"', page)


def test_a_matchs_turns_are_one_entry_with_a_count(mail, make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    first = to_move_user(match)
    other = bert if first == anna else anna
    # Three turns for ``first`` (they act in between, so each is a new turn).
    for _ in range(2):
        _play_one(match)
        _play_one(match)
    assert Notification.objects.filter(user=first, kind="your_turn", read_at__isnull=True).count() == 3
    # Turn mails wait for the delay; then only the turn still open is mailed (the two played
    # before their delay ended send nothing).
    fall_due()
    wait_for(lambda: [m for m in mail.to(first.email) if "Your turn" in m["Subject"]])
    assert len([m for m in mail.to(first.email) if "Your turn" in m["Subject"]]) == 1
    services.notify(first, "tournament_paired", {"tournament": "Herbst", "round": 1}, key="paired:x")

    client = Client()
    client.force_login(first)
    page = client.get("/notifications/").content.decode()
    assert _entries(page) == ["unread", "unread"]  # the tournament line, and the match as one entry
    assert f"3 updates in Card duel #{match.pk} since you last looked" in page
    assert f'href="/matches/{match.pk}/"' in page and 'class="new-mark"' in page
    group = next(g for g in client.get("/api/notifications/").json()["groups"] if g["match"] == match.pk)
    assert (group["unread"], group["count"], group["url"]) == (3, 3, f"/matches/{match.pk}/")

    # One click into the match reads the whole entry.
    client.get(f"/matches/{match.pk}/")
    page = client.get("/notifications/").content.decode()
    assert _entries(page) == ["unread", ""]
    assert "since you last looked" not in page and "and 2 earlier" in page
    # The other player's centre is theirs alone.
    assert not Notification.objects.filter(user=other, kind="your_turn", read_at__isnull=True).count() > 3


def test_grouped_centre_costs_constant_queries(make_user, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    anna, bert = make_user("anna"), make_user("bert")
    client = Client()
    client.force_login(anna)
    match = start_minigame(anna, bert)
    few = _queries(client, "/notifications/"), _queries(client, "/api/notifications/")
    for i in range(5):
        m = start_minigame(anna, bert)
        for turn in range(8):
            services.notify(anna, "your_turn", services.match_context(m.pk, anna.id), key=f"t:{m.pk}:{turn}",
                            match_id=m.pk)
        services.notify(anna, "tournament_paired", {"tournament": "T", "round": i}, key=f"p:{i}")
    assert _queries(client, "/notifications/") == few[0]
    assert _queries(client, "/api/notifications/") == few[1]
    page = client.get("/notifications/").content.decode()
    # Each match one entry (8 turns, plus its start line); each tournament line its own.
    assert len(re.findall(r"(8|9) updates in Card duel #\d+ since you last looked", page)) == 5
    assert len(_entries(page)) == 5 + 5 + 1  # + the first match's start line


def test_no_second_turn_mail_while_the_player_has_not_acted(mail, make_user):
    """A change announced again (a redelivered follow-up task, a second sweep) brings no new
    "your turn": one mail per turn until the player acted."""
    from matches.services import send_change_signals

    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    first = to_move_user(match)
    match.refresh_from_db()
    for _ in range(3):
        send_change_signals(match.pk, match.version, match.status, match.to_move, None)
    assert Notification.objects.filter(user=first, kind="your_turn").count() == 1
    fall_due()
    wait_for(lambda: mail.to(first.email))
    fall_due()  # again: nothing new
    _play_one(match)  # they act; the next turn is a new one
    _play_one(match)
    fall_due()
    wait_for(lambda: len([m for m in mail.to(first.email) if "Your turn" in m["Subject"]]) == 2)
    assert len([m for m in mail.to(first.email) if "Your turn" in m["Subject"]]) == 2


def test_the_bell_counts_the_centres_new_entries(make_user):
    """The bell and the centre agree: a match's unread notifications are one entry
    in the centre, so one in the bell; read ones are not counted; each other one counts."""
    anna, bert = make_user("anna"), make_user("bert")
    matches = [start_minigame(anna, bert) for _ in range(2)]
    for m in matches:
        for turn in range(4):
            services.notify(anna, "your_turn", services.match_context(m.pk, anna.id), key=f"t:{m.pk}:{turn}",
                            match_id=m.pk)
    for i in range(3):
        services.notify(anna, "tournament_paired", {"tournament": "T", "round": i}, key=f"p:{i}")
    services.mark_read(anna, [Notification.objects.filter(user=anna, match__isnull=True).first().pk])
    client = Client()
    client.force_login(anna)
    page = client.get("/notifications/").content.decode()
    new_entries = _entries(page).count("unread")
    bell = re.search(r'id="notif-badge" data-count="(\d+)"', page).group(1)
    assert new_entries == 4 and bell == "4", (new_entries, bell)
    assert services.unread_count(anna.id) == 12  # notifications (each match 4 turns + its start line, 2 others)
    assert client.get("/api/notifications/").json()["unread"] == 12
