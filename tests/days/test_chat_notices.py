"""The talk around a match: ``chat`` (one per match until read) and
``chat_mention`` (@name) notifications, the chat's unread mark, per-match mute and the
per-match notification level; digest and quiet hours apply as to any notification."""
from datetime import time, timedelta

import pytest
from django.utils import timezone

from matches import chat
from matches.consumers import read_state
from notifications import attention
from notifications.models import Delivery, Notification, Preference
from tests.days.helpers import client_for, move, start, to_move
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db(transaction=True)


def _kinds(user, match=None):
    qs = Notification.objects.filter(user=user, kind__in=["chat", "chat_mention"])
    if match is not None:
        qs = qs.filter(match=match)
    return list(qs.order_by("id").values_list("kind", flat=True))


def test_one_chat_notification_per_match_until_read(make_user):
    anna, bert, carl = make_user("anna"), make_user("bert"), make_user("carl")
    match = start_minigame(anna, bert, carl)
    chat.post(match.pk, bert, "Hello all")
    chat.post(match.pk, bert, "Anyone there?")
    chat.post(match.pk, carl, "Yes")
    assert _kinds(anna) == ["chat"]  # three lines, one notice until anna reads
    assert _kinds(bert) == ["chat"] and _kinds(carl) == ["chat"]  # each from the others' lines
    assert chat.unread_count(match.pk, anna) == 3 and chat.unread_count(match.pk, bert) == 1
    # Reading (the drawer opened) clears the mark and reads the notice; the next line notifies again.
    r = client_for(anna).post(f"/matches/{match.pk}/chat/read/")
    assert r.status_code == 204 and chat.unread_count(match.pk, anna) == 0
    assert not Notification.objects.filter(user=anna, kind="chat", read_at__isnull=True).exists()
    chat.post(match.pk, bert, "Your move soon?")
    assert _kinds(anna) == ["chat", "chat"] and chat.unread_count(match.pk, anna) == 1
    # One's own line reads the chat (and never notifies oneself).
    chat.post(match.pk, anna, "Coming")
    assert chat.unread_count(match.pk, anna) == 0 and _kinds(anna) == ["chat", "chat"]
    # The API's read, and a spectator's refusal.
    eve = make_user("eve")
    assert client_for(bert).post(f"/api/matches/{match.pk}/chat/read/").status_code == 204
    assert client_for(eve).post(f"/api/matches/{match.pk}/chat/read/").status_code == 403


def test_mentions_notify_each_time_but_not_oneself(make_user):
    anna, bert, carl = make_user("anna"), make_user("Bert.B"), make_user("carl")
    match = start_minigame(anna, bert, carl)
    chat.post(match.pk, anna, "@Bert.B, your plan? And @nobody")
    chat.post(match.pk, anna, "@bert.b again.")
    chat.post(match.pk, bert, "I am @Bert.B")
    assert _kinds(bert) == ["chat_mention", "chat_mention"]
    assert _kinds(carl) == ["chat"]
    mention = Notification.objects.filter(user=bert, kind="chat_mention").order_by("id").first()
    assert mention.data["player"] == "anna" and "your plan" in mention.data["line"]
    assert "mentioned you" in client_for(bert).get("/api/notifications/").content.decode()


def test_mute_and_levels(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start([anna, bert], move_days=3)
    url = f"/api/matches/{match.pk}/notifications/"
    a = client_for(anna)
    assert a.get(url).json() == {"muted": False, "level": "all"}
    assert a.put(url, {"muted": True}, content_type="application/json").json() == {"muted": True, "level": "none"}
    assert a.get(url).json()["muted"] is True
    Notification.objects.all().delete()
    chat.post(match.pk, bert, "@anna hello")
    move(match)  # whoever is to move; anna gets the turn at some point below
    if to_move(match) != anna:
        move(match)
    assert to_move(match) == anna
    assert not Notification.objects.filter(user=anna).exists()  # muted: no centre entry...
    assert not Delivery.objects.filter(notification__user=anna).exists()  # ...no mail, no push
    chat.post(match.pk, anna, "muted, but I can still write")
    assert _kinds(bert) == ["chat"]  # bert did not mute the match
    # Only my turn: the turn notifies, the chat does not.
    assert a.put(url, {"level": "turn"}, content_type="application/json").json() == {"muted": False, "level": "turn"}
    move(match, anna)
    move(match)
    assert to_move(match) == anna
    chat.post(match.pk, bert, "@anna and again")
    assert set(Notification.objects.filter(user=anna).values_list("kind", flat=True)) == {"your_turn"}
    assert a.put(url, {"muted": False}, content_type="application/json").json()["level"] == "all"
    chat.post(match.pk, bert, "@anna now?")
    assert "chat_mention" in Notification.objects.filter(user=anna).values_list("kind", flat=True)
    # Refusals: a bad value, not seated.
    r = a.put(url, {"level": "loud"}, content_type="application/json")
    assert r.status_code == 400 and r.json()["error"] == "illegal_action"
    assert a.put(url, {"muted": "yes"}, content_type="application/json").status_code == 400
    eve = client_for(make_user("eve"))
    assert eve.get(url).status_code == 403
    assert eve.put(url, {"muted": True}, content_type="application/json").status_code == 403
    # The table's select posts the same setting.
    r = a.post(f"/matches/{match.pk}/notify/", {"level": "none"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and a.get(url).json()["muted"] is True
    assert 'id="notify-level"' in a.get(f"/matches/{match.pk}/").content.decode()


def test_blocked_writer_notifies_nobody_who_blocked(make_user):
    from community.models import Block

    anna, bert, carl = make_user("anna"), make_user("bert"), make_user("carl")
    match = start_minigame(anna, bert, carl)
    Block.objects.create(user=bert, blocked=carl)  # bert blocked carl
    chat.post(match.pk, bert, "@carl hi")  # bert writes: carl (whom bert blocked) hears nothing
    assert _kinds(carl) == [] and _kinds(anna) == ["chat"]


def test_digest_and_quiet_hours_apply(make_user):
    anna, bert, carl = make_user("anna"), make_user("bert"), make_user("carl")
    match = start_minigame(anna, bert, carl)
    Preference.objects.create(user=anna, digest=True)
    Preference.objects.create(user=carl, quiet_start=time(0, 0), quiet_end=time(23, 59))
    Notification.objects.all().delete()
    chat.post(match.pk, bert, "@carl hi all")
    anna_mail = Delivery.objects.get(notification__user=anna, channel="email")
    assert anna_mail.notification.kind == "chat" and anna_mail.status == Delivery.Status.DIGEST
    carl_mail = Delivery.objects.get(notification__user=carl, channel="email")
    # A chat notice waits for the delay (the reader may be at the table), then for the end of
    # the quiet hours (quiet all day but for one minute: unless the sweep runs in that minute).
    assert carl_mail.notification.kind == "chat_mention" and carl_mail.status == Delivery.Status.DEFERRED
    later = timezone.now() + timedelta(minutes=20)
    attention.release(now=later)
    carl_mail.refresh_from_db()
    assert (carl_mail.status == Delivery.Status.DEFERRED and carl_mail.not_before > later) or \
        carl_mail.status == Delivery.Status.PENDING


def test_unread_mark_on_the_page_and_in_the_state_frame(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    chat.post(match.pk, bert, "one")
    chat.post(match.pk, bert, "two")
    page = client_for(anna).get(f"/matches/{match.pk}/").content.decode()
    assert 'id="chat-unread" data-count="2"' in page
    assert '"chat_unread": 2' in read_state(anna.pk, match.pk)
    assert '"chat_unread": 0' in read_state(bert.pk, match.pk)
    chat.mark_read(match.pk, anna)
    assert 'id="chat-unread" data-count="0"' in client_for(anna).get(f"/matches/{match.pk}/").content.decode()
