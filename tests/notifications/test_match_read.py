"""Opening a match page reads that match's notifications (for a seated player only)."""
import pytest
from django.test import Client

from notifications import services
from notifications.models import Notification
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db


def _turn(user, match, key):
    return services.notify(user, "your_turn", services.match_context(match.pk, user.id), key=key, match_id=match.pk)


def test_opening_a_match_reads_its_notifications(make_user):
    anna, bert, eve = make_user("anna"), make_user("bert"), make_user("eve")
    first, second = start_minigame(anna, bert), start_minigame(anna, bert)
    Notification.objects.all().delete()  # whatever the start announced: only ours below count
    mine, elsewhere, his = _turn(anna, first, "t1"), _turn(anna, second, "t2"), _turn(bert, first, "t3")
    # A spectator of the public match reads nothing.
    watcher = Client()
    watcher.force_login(eve)
    assert watcher.get(f"/matches/{first.pk}/").status_code == 200
    assert Notification.objects.filter(read_at__isnull=True).count() == 3
    client = Client()
    client.force_login(anna)
    page = client.get(f"/matches/{first.pk}/").content.decode()
    unread = set(Notification.objects.filter(read_at__isnull=True).values_list("pk", flat=True))
    assert unread == {elsewhere.pk, his.pk} and mine.pk not in unread
    # Read before the page is drawn: the bell already counts only the other match.
    assert 'id="notif-badge" data-count="1"' in page
