"""No mail while you play (notifications/attention.py, matches/presence.py), in a real browser
on the real services: the page's socket makes the player present in Redis, where the sweep
looks. The players choose "at once" for mail and push, the hardest case: without the presence
rule every bot reply would mail at once."""
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from tests.browser.test_site_first_visit import alchemist_move

pytestmark = [pytest.mark.browser, pytest.mark.realservices, pytest.mark.django_db(transaction=True)]

MOVES = 30


def _in_thread(fn, *args):
    # Playwright's loop runs in the test's thread; ORM work that pushes frames goes beside it.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args).result()


def _player(make_user, name):
    from notifications.models import Preference

    user = make_user(name)
    Preference.objects.create(user=user, turn_mail="now", turn_push="now")
    return user


def _bot_match(user):
    from games import registry
    from guide.views import _bot
    from matches import services

    return services.start_match(game="alchemist", options={}, move_days=3, public=False, entrants=[
        {"user": user, "bot": "", "choices": {}}, {"user": None, "bot": _bot(registry.get("alchemist")), "choices": {}}])


def _open(browser, base, user, path):
    client = Client()
    client.force_login(user)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                      "url": base}])
    page = ctx.new_page()
    page.goto(base + path)
    return ctx, page


def _play(page, moves: int) -> int:
    """Up to ``moves`` moves, each answered by the bot; returns how many were made."""
    made = 0
    while made < moves:
        if page.locator("#match-status[data-status='finished']").count():
            break
        page.wait_for_selector("#match-status[data-my-turn='1']", timeout=30_000)
        version = int(page.locator("#live").get_attribute("data-version"))
        alchemist_move(page)
        page.wait_for_function(f"Number(document.getElementById('live').dataset.version) > {version}",
                               timeout=30_000)
        made += 1
        # the bot answers (or the match ends)
        page.wait_for_function("""() => document.querySelector("#match-status").dataset.myTurn === "1"
                                  || document.querySelector("#match-status").dataset.status === "finished" """,
                               timeout=30_000)
    return made


def _sent_or_due(user_id) -> list:
    from notifications import services
    from notifications.models import Delivery

    services.flush()  # the sweep, now (the page is still open: present)
    return list(Delivery.objects.filter(notification__user_id=user_id, status__in=("pending", "sent"))
                .values_list("notification__kind", "channel"))


def test_a_bot_match_and_the_guided_match_played_in_the_browser_send_no_mail(live_site, browser, make_user):
    from matches import presence
    from notifications.models import Delivery, Notification

    anna = _player(make_user, "anna")
    match = _in_thread(_bot_match, anna)
    ctx, page = _open(browser, live_site, anna, f"/matches/{match.pk}/")
    page.wait_for_function("window.__liveSocketOpen === true")
    for _ in range(50):  # the server's presence thread writes the connect a moment later
        if _in_thread(lambda: presence.read([anna.pk])[anna.pk].on_match(match.pk)):
            break
        page.wait_for_timeout(100)
    else:
        pytest.fail("the open match page did not make the player present")
    made = _play(page, MOVES)
    assert made == MOVES or made >= 10, made
    page.wait_for_timeout(21_000)  # one refresh of the page's presence after the last turn came
    turns = Notification.objects.filter(user=anna, kind="your_turn").count()
    # Most bot replies made a turn notice (fewer than the moves: the last move may end the match, and a
    # worker that follows up a batch of changes writes none for a turn already played by then) …
    assert turns >= made // 2, (turns, made)
    assert _in_thread(_sent_or_due, anna.pk) == []  # … and none was mailed or pushed
    assert not Delivery.objects.filter(notification__user=anna, status="deferred",
                                       not_before__lte=timezone.now()).exists()
    ctx.close()

    # The guided match (as a new user starts it): muted, it writes no delivery at all.
    bert = _player(make_user, "bert")
    ctx, page = _open(browser, live_site, bert, "/learn/")
    page.click("#learn-alchemist button[type=submit]")
    page.wait_for_selector("#guide-hint")
    _play(page, 8)
    assert _in_thread(_sent_or_due, bert.pk) == []
    assert not Delivery.objects.filter(notification__user=bert).exists()
    ctx.close()
