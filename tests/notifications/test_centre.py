"""The notification centre: API, page, header bell with unread count, live frames."""
import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from matches.live import user_group
from notifications import services
from notifications.models import Notification

pytestmark = pytest.mark.django_db(transaction=True)


def _notify(user, n):
    for i in range(n):
        services.notify(user, "tournament_paired", {"tournament": "T", "round": i + 1}, key=f"paired:{i}")


def test_api_lists_newest_first_and_marks_read(make_user):
    anna = make_user("anna")
    _notify(anna, 3)
    client = Client()
    client.force_login(anna)
    data = client.get("/api/notifications/").json()
    assert data["unread"] == 3
    assert [n["text"] for n in data["notifications"]][0].startswith("Tournament T: round 3")
    assert all(n["unread"] for n in data["notifications"])
    first = data["notifications"][-1]["id"]
    r = client.post("/api/notifications/read/", {"ids": [first]}, content_type="application/json")
    assert r.json() == {"marked": 1, "unread": 2}
    r = client.post("/api/notifications/read/", {}, content_type="application/json")
    assert r.json()["unread"] == 0
    assert client.post("/api/notifications/read/", {"ids": "x"}, content_type="application/json").status_code == 400
    assert Client().get("/api/notifications/").status_code in (401, 403)
    # Nobody sees another user's notifications.
    bert = make_user("bert")
    client.force_login(bert)
    assert client.get("/api/notifications/").json() == {"unread": 0, "notifications": [], "groups": []}


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_centre_page_and_bell_with_constant_queries(make_user):
    anna = make_user("anna")
    client = Client()
    client.force_login(anna)
    _notify(anna, 2)
    few = _queries(client, "/notifications/")
    page = client.get("/lobby/").content.decode()
    assert 'id="notif-badge" data-count="2"' in page
    Notification.objects.all().delete()
    _notify(anna, 40)
    assert _queries(client, "/notifications/") == few
    page = client.get("/notifications/").content.decode()
    assert page.count('class="unread"') == 40
    client.post("/notifications/")  # mark all read
    assert 'id="notif-badge" data-count="0"' in client.get("/lobby/").content.decode()


def test_open_marks_read_and_follows_the_link(make_user):
    anna = make_user("anna")
    n = services.notify(anna, "tournament_paired", {"tournament": "T", "round": 1, "url": "/lobby/"}, key="k")
    client = Client()
    client.force_login(anna)
    r = client.get(f"/notifications/{n.pk}/open/")
    assert r.status_code == 302 and r["Location"] == "/lobby/"
    n.refresh_from_db()
    assert n.read_at is not None
    client.force_login(make_user("bert"))
    assert client.get(f"/notifications/{n.pk}/open/").status_code == 404


def test_new_notification_is_pushed_to_the_users_pages(make_user):
    import asyncio
    import json

    from asgiref.sync import sync_to_async

    anna = make_user("anna")
    layer = get_channel_layer()

    async def scenario():  # one event loop: a pub/sub layer's subscriptions belong to their loop
        channel = await layer.new_channel()
        await layer.group_add(user_group(anna.id), channel)
        await sync_to_async(_notify)(anna, 1)
        return await asyncio.wait_for(layer.receive(channel), 10)

    frame = json.loads(async_to_sync(scenario)()["text"])
    assert frame["type"] == "notification" and frame["unread"] == 1
    assert frame["text"].startswith("Tournament T: round 1")


def test_settings_page_saves_channels_quiet_hours_and_vacation(make_user):
    anna = make_user("anna")
    client = Client()
    client.force_login(anna)
    page = client.get("/notifications/settings/").content.decode()
    assert 'name="email__your_turn"' in page and 'name="push__reminder"' in page and 'id="vacation-form"' in page
    r = client.post("/notifications/settings/", {"form": "prefs", "email__your_turn": "on", "push__reminder": "on",
                                                 "digest": "on", "digest_hour": 9, "quiet_start": "22:00",
                                                 "quiet_end": "07:00"})
    assert r.status_code == 302
    pref = services.preferences(anna)
    assert pref.channels["your_turn"] == ["email"] and pref.channels["reminder"] == ["push"]
    assert pref.digest and pref.digest_hour == 9 and str(pref.quiet_start) == "22:00:00"
    bad = client.post("/notifications/settings/", {"form": "prefs", "digest_hour": 9, "quiet_start": "22:00"})
    assert bad.status_code == 200 and "Quiet hours need a start and an end" in bad.content.decode()
    from django.utils import timezone

    start = (timezone.localdate() + timezone.timedelta(days=10)).isoformat()
    assert client.post("/notifications/settings/", {"form": "vacation", "start": start, "days": 3}).status_code == 302
    assert anna.vacations.count() == 1
    too_long = client.post("/notifications/settings/", {"form": "vacation", "start": start, "days": 300})
    assert too_long.status_code == 200 and "vacation days left" in too_long.content.decode()
    vacation = anna.vacations.get()
    client.post("/notifications/settings/", {"form": "cancel-vacation", "vacation": vacation.pk})
    assert anna.vacations.count() == 0
