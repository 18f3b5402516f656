"""E-mail through a real SMTP server (aiosmtpd): content, links, one-click unsubscribe,
languages, one turn mail per turn, quiet hours, digest, retries. On the real services a Celery
worker on Redis sends them; on the embedded default the same tasks run in-process."""
from datetime import time as dtime, timedelta
from urllib.parse import urlparse

import pytest
from django.test import Client
from django.utils import timezone

from matches import services as match_services
from notifications import outbox, recipients, services, tasks
from notifications.models import Delivery, Notification
from tests.conftest import wait_for
from tests.notifications.helpers import body, fall_due
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db(transaction=True)


def _play_one(match):
    user = to_move_user(match)
    match.refresh_from_db()
    action = next(a for a in match_services.plugin_for(match).engine.legal_actions(match.state, match.to_move[0])
                  if a["type"] == "play")
    match_services.submit_action(match.pk, user, action, match.version)
    return user


def test_turn_mail_names_game_and_opponents_with_link_and_unsubscribe(mail, make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    first = to_move_user(match)
    other = bert if first == anna else anna
    fall_due()  # the turn (and the start) wait for the players' delay; both are away
    turn = wait_for(lambda: mail.to(first.email))
    started = wait_for(lambda: mail.to(other.email))
    msg = turn[0]
    text = body(msg)
    assert "Your turn" in msg["Subject"] and "Card duel" in msg["Subject"]
    assert f"Card duel #{match.pk} against {other.username} (2 days left)" in text  # the clock's time left (3 days a move)
    assert f"http://127.0.0.1:8000/matches/{match.pk}/" in text  # SITE_URL + the match: one click
    assert "has started" in started[0]["Subject"]
    unsubscribe = msg["List-Unsubscribe"].strip("<>")
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe in text
    html = msg.get_body(preferencelist=("html",)).get_content()
    assert f'href="http://127.0.0.1:8000/matches/{match.pk}/"' in html

    # The player acts; the opponent gets their own turn mail, the player none meanwhile.
    _play_one(match)
    fall_due()
    wait_for(lambda: any("Your turn" in m["Subject"] for m in mail.to(other.email)))
    assert len(mail.to(first.email)) == 1


def test_one_turn_mail_until_the_player_acted(mail, make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    first = to_move_user(match)
    fall_due()
    wait_for(lambda: mail.to(first.email))
    seat = match.seats.get(user=first)
    # The same turn announced again (a repeated signal, a second sweep): no second mail.
    assert services.notify(first, "your_turn", services.match_context(match.pk, first.id),
                           key=f"turn:{match.pk}:{seat.pk}:0", match_id=match.pk) is None
    assert Notification.objects.filter(user=first, kind="your_turn").count() == 1
    # Once the player has acted and it is their turn again, there is a new mail.
    _play_one(match)
    _play_one(match)
    fall_due()
    wait_for(lambda: len(mail.to(first.email)) == 2)
    # "sent" is committed right after the server's 250, so a moment after the mail arrives.
    wait_for(lambda: Delivery.objects.filter(notification__user=first, channel="email", status="sent").count() == 2)


def test_one_click_unsubscribe(mail, make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    first = to_move_user(match)
    fall_due()
    msg = wait_for(lambda: mail.to(first.email))[0]
    path = urlparse(msg["List-Unsubscribe"].strip("<>")).path
    anonymous = Client(enforce_csrf_checks=True)  # a mail client: no session, no CSRF token
    assert "Unsubscribe" in anonymous.get(path).content.decode()
    assert anonymous.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert "email" not in services.channels_for(services.preferences(first), "your_turn")
    # Tampered tokens are refused.
    assert anonymous.post(path[:-3] + "xx/").status_code == 400
    # Later turns: in the centre, not by mail.
    mail.clear()
    _play_one(match)
    _play_one(match)
    wait_for(lambda: Notification.objects.filter(user=first, kind="your_turn").count() == 2)
    fall_due()
    assert not Delivery.objects.filter(notification__user=first, notification__kind="your_turn",
                                       status__in=("pending", "deferred")).exists()
    assert mail.to(first.email) == []


def test_german_mail_for_german_players(mail, make_user):
    anna, bert = make_user("anna"), make_user("bert")
    for u in (anna, bert):
        u.profile.language = "de"
        u.profile.save(update_fields=["language"])
    match = start_minigame(anna, bert)
    first = to_move_user(match)
    fall_due()
    msg = wait_for(lambda: mail.to(first.email))[0]
    assert "Du bist am Zug" in msg["Subject"] and "Kartenduell" in msg["Subject"]
    assert "gegen" in body(msg) and "noch 2 Tage" in body(msg) and "weil du weg warst" in body(msg)


def test_quiet_hours_hold_mail_until_they_end(mail, make_user):
    anna = make_user("anna")
    anna.profile.timezone = "UTC"
    anna.profile.save(update_fields=["timezone"])
    now = timezone.now()
    pref = services.preferences(anna)
    pref.quiet_start = (now - timedelta(hours=1)).time().replace(microsecond=0)
    pref.quiet_end = (now + timedelta(hours=1)).time().replace(second=0, microsecond=0)
    pref.save()
    services.notify(anna, "tournament_paired", {"tournament": "Herbst", "round": 2}, key="paired:1:2")
    delivery = Delivery.objects.get(notification__user=anna)
    assert delivery.status == "held" and delivery.not_before > now
    assert services.flush(now=now) == 0
    assert services.flush(now=delivery.not_before + timedelta(seconds=1)) == 1
    msg = wait_for(lambda: mail.to(anna.email))[0]
    assert "Tournament Herbst: round 2 is paired" in msg["Subject"]


def test_daily_digest_instead_of_single_mails(mail, make_user):
    anna = make_user("anna")
    anna.profile.timezone = "UTC"
    anna.profile.save(update_fields=["timezone"])
    pref = services.preferences(anna)
    pref.digest, pref.digest_hour = True, 7
    pref.save()
    services.notify(anna, "tournament_paired", {"tournament": "Herbst", "round": 1}, key="paired:1:1")
    services.notify(anna, "tournament_paired", {"tournament": "Herbst", "round": 2}, key="paired:1:2")
    assert Delivery.objects.filter(status="digest").count() == 2
    morning = timezone.now().replace(hour=6, minute=0)
    assert tasks.digests_due(now=morning) == 0  # before the digest hour
    assert tasks.digests_due(now=morning + timedelta(hours=2)) == 1
    msg = wait_for(lambda: mail.to(anna.email))[0]
    assert "2 updates" in msg["Subject"]
    assert "round 1 is paired" in body(msg) and "round 2 is paired" in body(msg)
    assert tasks.digests_due(now=morning + timedelta(hours=3)) == 0  # once a day
    wait_for(lambda: Delivery.objects.filter(status="sent").count() == 2)
    assert len(mail.to(anna.email)) == 1


def _arrives_once(settings, mail, user, delivery):
    """The SMTP server is back: the send that failed arrives, once."""
    if not settings.REDIS_URL:  # in-process: the periodic flush tries again (a worker retries by itself)
        assert services.flush(now=timezone.now() + timedelta(minutes=10)) == 1
    wait_for(lambda: mail.to(user.email), timeout=60)
    wait_for(lambda: Delivery.objects.get(pk=delivery.pk).status == "sent")
    assert len(mail.to(user.email)) == 1


def test_mail_retried_when_the_server_was_down(mail, smtp_server, settings, make_user):
    anna = make_user("anna")
    smtp_server.stop()
    try:
        services.notify(anna, "tournament_paired", {"tournament": "T", "round": 1}, key="paired:9:1")
        delivery = wait_for(lambda: Delivery.objects.filter(notification__user=anna, attempts__gte=1).first())
        assert delivery.status == "pending" and delivery.error
    finally:
        smtp_server.restart()
    _arrives_once(settings, mail, anna, delivery)
    assert services.flush(now=timezone.now() + timedelta(minutes=20)) == 0


def test_the_sends_one_worker_task_makes_due_go_out_together(mail, make_user):
    """In the worker, a task's deliveries are published as one ``deliver_many`` when it ends
    (outbox.start_collecting, hooked to Celery's task signals); each still reaches its player."""
    from pathlib import Path

    players = [make_user(name) for name in ("anna", "bert", "cara")]
    log = Path(__file__).resolve().parents[2] / "var" / "test-notifications-worker.log"
    seen = log.stat().st_size if log.exists() else 0
    outbox.start_collecting()
    try:
        for user in players:
            services.notify(user, "tournament_paired", {"tournament": "T", "round": 3}, key=f"paired:3:{user.pk}")
        # Nothing has gone out yet: the three sends wait for the end of the "task".
        assert set(Delivery.objects.filter(channel="email").values_list("status", flat=True)) == {"pending"}
    finally:
        outbox.publish_collected()
    for user in players:
        wait_for(lambda user=user: mail.to(user.email))
    wait_for(lambda: Delivery.objects.filter(channel="email", status="sent").count() == 3)
    if log.exists() and log.stat().st_size > seen:  # a real worker took them: in one task
        with open(log) as f:
            f.seek(seen)
            received = [line for line in f if "received" in line]
        assert sum("notifications.tasks.deliver_many" in line for line in received) == 1
        assert not any("notifications.tasks.deliver[" in line for line in received)


def test_a_send_of_a_batch_that_fails_for_now_is_retried_alone(mail, smtp_server, settings, make_user):
    from notifications.tasks import deliver_many

    anna = make_user("anna")
    outbox.start_collecting()
    services.notify(anna, "tournament_paired", {"tournament": "T", "round": 1}, key="paired:8:1")
    due = outbox.take_collected()
    smtp_server.stop()
    try:
        deliver_many.apply(args=([list(d) for d in due],))  # here, with the server down
        delivery = Delivery.objects.get(notification__user=anna)
        assert delivery.status == "pending" and delivery.attempts >= 1 and delivery.error
    finally:
        smtp_server.restart()
    _arrives_once(settings, mail, anna, delivery)


def test_quiet_hours_across_midnight():
    from zoneinfo import ZoneInfo

    from notifications.models import Preference

    pref = Preference(quiet_start=dtime(22, 0), quiet_end=dtime(7, 0))
    berlin = ZoneInfo("Europe/Berlin")
    late = timezone.datetime(2025, 3, 3, 23, 30, tzinfo=berlin)
    assert recipients.quiet_until(pref, berlin, late) == timezone.datetime(2025, 3, 4, 7, 0, tzinfo=berlin)
    assert recipients.quiet_until(pref, berlin, late.replace(hour=12)) is None
