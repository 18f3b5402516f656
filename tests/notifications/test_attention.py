"""Notices that respect attention (notifications/attention.py, matches/presence.py): a turn,
chat line, start or end waits for the user's delay and goes out only if it is still open, was
not seen, and the player is away; turn mails of one user go together, at most one an hour
unless a deadline is near; deadline warnings keep their timing; nothing is lost or sent twice.
Time is the sweep's ``now``, never a sleep. On the real services the presence lives in Redis
and a Celery worker sends."""
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from clocks.models import SeatClock
from config.asgi import application
from matches import presence, services as match_services
from notifications import attention, services
from notifications.models import Delivery, Notification, Preference
from tests.conftest import wait_for
from tests.notifications.helpers import wait_workers_idle
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_presence():
    presence.forget()
    yield
    presence.forget()


def _play_one(match):
    user = to_move_user(match)
    match.refresh_from_db()
    action = next(a for a in match_services.plugin_for(match).engine.legal_actions(match.state, match.to_move[0])
                  if a["type"] == "play")
    match_services.submit_action(match.pk, user, action, match.version)
    return user


def _sweep(minutes: float):
    """The flush as it runs ``minutes`` from now (the sockets still open were refreshed meanwhile,
    as the presence thread does every 20 s)."""
    presence.refresh(at=time.time() + minutes * 60)
    return services.flush(now=timezone.now() + timedelta(minutes=minutes))


def _turn_mails(mail, user) -> list:
    return [m for m in mail.to(user.email) if "turn" in m["Subject"]]


def _turn_rows(user):
    return Delivery.objects.filter(notification__user=user, notification__kind="your_turn", channel="email")


def _settled(mail, user) -> list:
    wait_workers_idle()
    return _turn_mails(mail, user)


def _players(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    first = to_move_user(match)
    return match, first, (bert if first == anna else anna)


def test_a_turn_played_before_the_delay_ends_sends_nothing(mail, make_user):
    match, first, other = _players(make_user)
    assert _turn_rows(first).get().status == "deferred"  # due after 15 minutes, not now
    _sweep(10)
    _play_one(match)  # ten minutes later (in the sweep's time) the player moves
    _sweep(20)
    assert _turn_rows(first).get().status == "skipped"
    assert _settled(mail, first) == []
    wait_for(lambda: _turn_mails(mail, other))  # the opponent's turn, still open, is mailed
    assert len(_turn_mails(mail, other)) == 1


def test_leaving_10s_before_the_turn_came_still_mails_once_after_the_delay(mail, make_user):
    match, first, other = _players(make_user)
    now = time.time()
    presence.opened(other.pk, match.pk, at=now - 300)
    presence.closed(other.pk, match.pk, at=now - 10)  # left 10 s before the turn comes
    presence.flush()
    _play_one(match)  # the turn comes to ``other``
    _sweep(14)
    assert _turn_rows(other).get().status == "deferred"
    assert _settled(mail, other) == []
    _sweep(16)
    wait_for(lambda: _turn_mails(mail, other))
    _sweep(30)
    _sweep(600)
    assert len(_settled(mail, other)) == 1


def test_the_delay_counts_from_leaving_when_the_player_left_after_the_turn_came(mail, make_user):
    match, first, other = _players(make_user)
    presence.opened(first.pk, None)  # on the site (another page) when the turn comes
    presence.flush()
    assert presence.read([first.pk])[first.pk].present
    _sweep(10)  # present: put off
    assert _turn_rows(first).get().status == "deferred"
    presence.closed(first.pk, None, at=time.time() + 20 * 60)  # leaves 20 minutes after the turn came
    presence.flush()
    _sweep(30)  # 10 minutes after leaving: not yet
    assert _settled(mail, first) == []
    _sweep(36)  # 16 minutes after leaving
    wait_for(lambda: _turn_mails(mail, first))


def test_an_open_match_page_swallows_the_notice_and_so_does_opening_the_match(mail, make_user):
    match, first, other = _players(make_user)
    presence.opened(first.pk, match.pk)  # the match's page is open when the turn comes
    presence.flush()
    presence.closed(first.pk, match.pk, at=time.time() + 60)
    presence.flush()
    _sweep(60)
    assert _turn_rows(first).get().status == "skipped"  # seen at the table
    _play_one(match)
    client = Client()
    client.force_login(other)
    client.get(f"/matches/{match.pk}/")  # opening the match reads its notices
    presence.forget([other.pk])  # (the request counted as presence; the notice is read anyway)
    _sweep(60)
    assert _turn_rows(other).get().status == "skipped"
    assert _settled(mail, first) == [] and _settled(mail, other) == []


def test_two_tabs_one_closed_still_present_and_a_dead_server_stops_counting_within_a_minute(make_user):
    match, first, _other = _players(make_user)

    def socket():
        comm = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/",
                                     headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")])
        comm.scope["user"] = first
        return comm

    async def tabs():
        one, two = socket(), socket()
        assert (await one.connect())[0] and (await two.connect())[0]
        presence.flush()
        state = presence.read([first.pk])[first.pk]
        assert state.present and state.on_match(match.pk)
        await one.disconnect()  # one tab closed
        presence.flush()
        state = presence.read([first.pk])[first.pk]
        assert state.present and state.on_match(match.pk)
        await two.disconnect()
        presence.flush()
        state = presence.read([first.pk])[first.pk]
        assert not state.present and abs(state.left_at - time.time()) < 5

    async_to_sync(tabs)()
    # A server that dies keeps no goodbye: its last word counts ALIVE_S (< 60 s), then not.
    presence.opened(first.pk, match.pk)
    presence.flush()
    later = time.time() + presence.ALIVE_S + 1
    assert presence.read([first.pk])[first.pk].present
    assert not presence.read([first.pk], now=later)[first.pk].present
    assert presence.ALIVE_S < 60


def test_a_server_restart_rebuilds_presence_and_sends_nothing_twice(mail, make_user):
    """The old process's fields run out; the reconnecting page writes a new one (another
    process name). Deferred notices that fell due meanwhile are sent by the next sweep, once."""
    match, first, other = _players(make_user)
    presence.opened(first.pk, None)
    presence.flush()
    presence._proc = "restarted:1:abc"  # the new process after the restart (a new name)
    presence._open.clear()  # the old process's sockets are gone with it
    presence.opened(first.pk, None)  # the page reconnects
    presence.flush()
    state = presence.read([first.pk], now=time.time() + presence.ALIVE_S + 1)[first.pk]
    assert len(state.sources) == 2 and not state.present  # (neither refreshed in this test)
    assert presence.read([first.pk])[first.pk].present
    presence.forget([first.pk])
    # Services down for hours: the follow-up recorded the notices; two sweeps (two beat
    # processes, say) after the outage send each once.
    _sweep(240)
    _sweep(240)
    wait_for(lambda: _turn_mails(mail, first))
    assert len(_settled(mail, first)) == 1
    assert _turn_rows(first).get().status == "sent"


def test_several_matches_fall_due_as_one_mail_most_urgent_first_and_one_an_hour(mail, make_user):
    anna = make_user("anna")
    opponents = [make_user(f"opp{i}") for i in range(3)]
    matches = []
    for i, opp in enumerate(opponents):
        m = start_minigame(anna, opp)
        while to_move_user(m) != anna:
            _play_one(m)
        matches.append(m)
    # Different deadlines: the second match is the most urgent.
    for hours, m in zip((60, 20, 40), matches):
        SeatClock.objects.filter(match=m, user=anna).update(deadline=timezone.now() + timedelta(hours=hours))
    _sweep(20)
    msg = wait_for(lambda: _turn_mails(mail, anna))[0]
    assert msg["Subject"] == "Spieltisch: Your turn in 3 games"
    text = msg.get_body(preferencelist=("plain",)).get_content()
    order = [text.index(f"#{m.pk} against") for m in (matches[1], matches[2], matches[0])]
    assert order == sorted(order)  # the most urgent first
    assert "19 hours left" in text and "opp1" in text
    # A new turn 20 minutes later: within the hour of the last turn mail, it waits.
    m = matches[0]
    _play_one(m)
    _play_one(m)
    row = _turn_rows(anna).filter(status="deferred").get()
    attention.release(now=timezone.now() + timedelta(minutes=40))
    row.refresh_from_db()
    assert row.status == "deferred" and row.not_before > timezone.now() + timedelta(minutes=55)
    # …unless its deadline is near.
    SeatClock.objects.filter(match=m, user=anna).update(deadline=timezone.now() + timedelta(hours=3))
    attention.release(now=timezone.now() + timedelta(minutes=61))
    wait_for(lambda: len(_turn_mails(mail, anna)) == 2)


def test_deadline_warnings_keep_their_timing_while_present(mail, make_user):
    match, first, _other = _players(make_user)
    presence.opened(first.pk, match.pk)
    presence.flush()
    services.notify(first, "reminder", {**services.match_context(match.pk, first.pk), "hours_left": 5},
                    key=f"reminder:{match.pk}:1", match_id=match.pk)
    reminder = Delivery.objects.get(notification__kind="reminder", channel="email")
    assert reminder.status in ("pending", "sent")  # not deferred, not swallowed
    wait_for(lambda: [m for m in mail.to(first.email) if "Reminder" in m["Subject"]])


def test_chat_follows_the_presence_rule(mail, make_user):
    from matches import chat

    match, first, other = _players(make_user)
    presence.opened(other.pk, match.pk)  # at the table while the line comes
    presence.flush()
    chat.post(match.pk, first, "hello there")
    presence.closed(other.pk, match.pk, at=time.time() + 5)
    presence.flush()
    _sweep(60)
    row = Delivery.objects.get(notification__user=other, notification__kind="chat", channel="email")
    assert row.status == "skipped"
    # Away: the next line (the chat still unread: the same notice key) … mark read, then a new line.
    Notification.objects.filter(user=other).update(read_at=timezone.now())
    other_seat = match.seats.get(user=other)
    other_seat.chat_read = 10_000
    other_seat.save(update_fields=["chat_read"])
    presence.forget([other.pk])
    chat.post(match.pk, first, "are you there?")
    _sweep(20)
    wait_for(lambda: [m for m in mail.to(other.email) if "chat" in m["Subject"]])


def test_the_setting_at_once_sends_when_away_and_digest_lists_only_what_still_waits(mail, make_user):
    match, first, other = _players(make_user)
    pref = services.preferences(other)
    pref.turn_mail = "now"
    pref.save()
    _play_one(match)  # other's turn: away, at once
    wait_for(lambda: _turn_mails(mail, other))
    # Digest only: a played turn drops out of the digest; a waiting one is listed.
    pref.turn_mail = "digest"
    pref.save()
    _play_one(match)
    _play_one(match)  # a turn for ``other`` (then played below) …
    played = _turn_rows(other).filter(status="digest").get()
    _play_one(match)
    _play_one(match)  # … and one still waiting
    from notifications import mail as mail_module
    from notifications.models import Digest

    digest = Digest.objects.create(user=other, day=timezone.localdate())
    assert mail_module.send_digest(digest.pk) == "sent"
    played.refresh_from_db()
    assert played.status == "skipped"
    sent = [m for m in mail.to(other.email) if "updates" in m["Subject"]]
    assert sent and sent[0]["Subject"] == "Spieltisch: 1 updates"


def test_a_bot_handing_back_the_turn_while_present_sends_nothing(mail, make_user, celery_worker):
    anna = make_user("anna")
    match = match_services.start_match(game="kartenduell", options={}, move_days=3, public=False, entrants=[
        {"user": anna, "bot": "", "choices": {}}, {"user": None, "bot": "random-legal", "choices": {}}])
    presence.opened(anna.pk, match.pk)  # at the table
    presence.flush()
    wait_for(lambda: to_move_user(match) == anna)
    _play_one(match)
    wait_for(lambda: to_move_user(match) == anna)  # the bot handed the turn back
    # (the bot's move's follow-up is the worker's on the real services)
    wait_for(lambda: attention.open_turns([r.notification for r in _turn_rows(anna).select_related("notification")]),
             timeout=60)  # the turn the bot handed back is open
    # How many turn rows exist by now depends on who began; the sweeps need only that no
    # follow-up is still on its way.
    wait_workers_idle()
    _sweep(20)
    _sweep(60)
    assert set(_turn_rows(anna).values_list("status", flat=True)) == {"skipped"}
    assert _settled(mail, anna) == []


def test_the_guided_match_never_mails(mail, make_user):
    anna = make_user("anna")
    client = Client()
    client.force_login(anna)
    r = client.post("/learn/orden/")
    assert r.status_code == 302
    match_id = int(r["Location"].rstrip("/").split("/")[-1])
    presence.forget([anna.pk])
    _sweep(600)
    assert not Delivery.objects.filter(notification__user=anna).exists()
    assert match_services.Match.objects.get(pk=match_id).seats.get(user=anna).notify_level == "none"
    wait_workers_idle()
    assert mail.to(anna.email) == []


def test_the_settings_page_and_the_api(make_user):
    anna = make_user("anna")
    client = Client()
    client.force_login(anna)
    got = client.get("/api/notifications/settings/").json()
    assert (got["turn_mail"], got["turn_push"]) == ("15m", "2m")
    r = client.patch("/api/notifications/settings/", {"turn_mail": "1h", "turn_push": "now"},
                     content_type="application/json")
    assert r.status_code == 200 and (r.json()["turn_mail"], r.json()["turn_push"]) == ("1h", "now")
    bad = client.patch("/api/notifications/settings/", {"turn_mail": "3d"}, content_type="application/json")
    assert bad.status_code == 400 and "error" in bad.json()
    assert Preference.objects.get(user=anna).turn_mail == "1h"
    page = client.get("/notifications/settings/").content.decode()
    assert 'name="turn_mail" value="1h"' in page and 'id="attention-rule"' in page
    r = client.post("/notifications/settings/", {"form": "prefs", "digest_hour": 8, "turn_mail": "digest",
                                                 "turn_push": "15m", "email__your_turn": "on"})
    assert r.status_code == 302
    pref = Preference.objects.get(user=anna)
    assert (pref.turn_mail, pref.turn_push) == ("digest", "15m")
    anna.profile.language = "de"
    anna.profile.save(update_fields=["language"])
    centre = client.get("/notifications/").content.decode()
    assert 'id="attention-note"' in centre


def test_a_turn_mail_takes_the_other_waiting_turns_along(mail, make_user):
    anna = make_user("anna")
    first, second = [start_minigame(anna, make_user(f"opp{i}")) for i in range(2)]
    for m in (first, second):
        while to_move_user(m) != anna:
            _play_one(m)
    early = _turn_rows(anna).get(notification__match=first)
    Notification.objects.filter(pk=early.notification_id).update(created_at=timezone.now() - timedelta(minutes=20))
    Delivery.objects.filter(pk=early.pk).update(not_before=timezone.now() - timedelta(minutes=5))
    attention.release()  # only the first is due; the second (10 minutes old at most) goes along
    msg = wait_for(lambda: _turn_mails(mail, anna))[0]
    assert msg["Subject"] == "Spieltisch: Your turn in 2 games"
    assert set(_turn_rows(anna).values_list("status", flat=True)) == {"sent"}
