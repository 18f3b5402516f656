"""Rate limits: log-in (per address and per account), sign-up/reset mails, moves by the game
page's forms (config/ratelimit.py) and by the API (DRF "actions" throttle) — at the real rates."""
import random
import time

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from config.ratelimit import limits
from matches.models import LogEntry
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db


def fresh_ip() -> str:
    # Counters live in the shared cache (Redis on the real path): a private address per test.
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


@pytest.fixture(autouse=True)
def whole_window():
    """The limits count per clock minute: start each test with at least 15 s of it left, so a
    test does not straddle two windows (and see its count reset half-way)."""
    left = 60 - time.time() % 60
    if left < 15:
        time.sleep(left + 0.05)


def forget_counters(prefix: str) -> None:
    window = int(time.time() // 60)
    cache.delete_many([f"{prefix}:{w}" for w in (window, window + 1)])


def test_login_attempts_per_address_are_limited(make_user):
    make_user("alice")
    client, limit = Client(REMOTE_ADDR=fresh_ip()), limits()["login-ip"]
    statuses = [client.post("/accounts/login/", {"username": f"nobody{i}", "password": "wrong"}).status_code
                for i in range(limit + 1)]
    assert statuses == [200] * limit + [429]
    # Even the right password waits now: guessing cannot be told from a real log-in.
    r = client.post("/accounts/login/", {"username": "alice", "password": "pw-Secret-123"})
    assert r.status_code == 429 and int(r["Retry-After"]) >= 1


def test_login_attempts_per_account_are_limited_across_addresses(make_user):
    name = f"bobby{random.randrange(10**9)}"  # counters are shared by concurrent test runs on Redis
    make_user(name)
    limit = limits()["login-user"]
    statuses = [Client(REMOTE_ADDR=fresh_ip()).post("/accounts/login/", {"username": name.upper(), "password": "x"})
                .status_code for _ in range(limit + 1)]
    assert statuses == [200] * limit + [429]


def test_token_endpoint_is_limited():
    client, limit = APIClient(REMOTE_ADDR=fresh_ip()), limits()["login-ip"]
    statuses = [client.post("/api/auth/token/", {"username": f"x{i}", "password": "y"}, format="json").status_code
                for i in range(limit + 1)]  # a new name each time: only the address rule applies
    assert statuses == [400] * limit + [429]
    assert client.post("/api/auth/token/", {}, format="json").json()["error"] == "throttled"


def test_signups_and_password_resets_are_limited():
    ip, limit = fresh_ip(), limits()["signup-ip"]
    statuses = []
    for i in range(limit + 1):
        client = Client(REMOTE_ADDR=ip)  # a new browser each time, same address
        statuses.append(client.post("/accounts/signup/", {
            "username": f"new{i}", "email": f"new{i}@example.org", "language": "en",
            "password1": "Long-pass-4321", "password2": "Long-pass-4321"}).status_code)
    assert statuses == [302] * limit + [429]
    client, limit = Client(REMOTE_ADDR=fresh_ip()), limits()["reset-ip"]
    statuses = [client.post("/accounts/password/reset/", {"email": "x@example.org"}).status_code
                for _ in range(limit + 1)]
    assert statuses == [302] * limit + [429]


def test_successful_logins_do_not_count(make_user):
    make_user("carol")
    client, limit = Client(REMOTE_ADDR=fresh_ip()), limits()["login-user"]
    for _ in range(limit + 2):
        assert client.post("/accounts/login/", {"username": "carol", "password": "pw-Secret-123"}).status_code == 302
        client.logout()


def test_game_page_moves_are_limited(make_user, settings):
    from config.ratelimit import DEFAULTS

    assert DEFAULTS["match-post"] == 600
    # 601 moves can outlast the 15 s of the minute the test is sure of on a loaded machine
    # (the count restarts with the next minute): the rule at a tenth of its rate.
    settings.RATE_LIMITS = {"match-post": 60}
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    client = Client(REMOTE_ADDR=fresh_ip())
    mover = to_move_user(match)
    client.force_login(mover)
    forget_counters(f"rl:match-post:u{mover.pk}")  # user ids repeat across test databases
    limit = limits()["match-post"]
    try:
        statuses = [client.post(f"/matches/{match.pk}/act/", {"version": "99", "type": "draw"}).status_code
                    for _ in range(limit + 1)]
    finally:  # user ids repeat in later tests: leave no counter behind
        forget_counters(f"rl:match-post:u{mover.pk}")
    assert statuses[:limit] == [302] * limit and statuses[-1] == 429
    assert LogEntry.objects.filter(match=match).count() == 0


def test_api_actions_are_throttled(make_user):
    from api.views import ActionThrottle

    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    client = APIClient()
    mover = to_move_user(match)
    client.force_authenticate(mover)
    cache.delete(f"throttle_actions_{mover.pk}")  # user ids repeat across test databases
    rate = ActionThrottle().get_rate()
    assert rate == "600/min"
    try:
        statuses = [client.post(f"/api/matches/{match.pk}/actions/", {"action": {"type": "draw"}, "version": 99},
                                format="json").status_code for _ in range(601)]
    finally:  # user ids repeat in later tests: leave no counter behind
        cache.delete(f"throttle_actions_{mover.pk}")
    assert statuses[:600] == [409] * 600 and statuses[600] == 429


# --- issue 17, item 4: every content type, and under concurrency ------------------------------
@pytest.mark.parametrize("kind", ["json", "multipart", "form"])
def test_per_account_limit_holds_for_every_content_type(make_user, kind):
    name = f"jason{random.randrange(10**9)}"
    make_user(name)
    limit = limits()["login-user"]
    statuses = []
    for i in range(limit + 3):
        client = Client(REMOTE_ADDR=fresh_ip())  # a new address each time: only the account rule applies
        body = {"username": name, "password": f"wrong{i}"}
        if kind == "json":
            r = client.post("/api/auth/token/", body, content_type="application/json")
        elif kind == "multipart":
            r = client.post("/api/auth/token/", body)  # the test client's default: multipart
        else:
            from urllib.parse import urlencode

            r = client.post("/accounts/login/", urlencode(body), content_type="application/x-www-form-urlencoded")
        statuses.append(r.status_code)
    assert 429 not in statuses[:limit] and statuses[limit:] == [429] * 3, statuses


@pytest.mark.django_db(transaction=True)
def test_parallel_attempts_cannot_outrun_the_limit(make_user, settings):
    """60 wrong passwords at once for one account: exactly the limit (10) are processed."""
    from concurrent.futures import ThreadPoolExecutor

    settings.RATE_LIMITS = {"login-user": 10}
    name = f"para{random.randrange(10**9)}"
    make_user(name)
    barrier = __import__("threading").Barrier(12)

    def attempt(i):
        client = Client(REMOTE_ADDR=fresh_ip())
        if i < 12:
            barrier.wait(timeout=10)
        return client.post("/api/auth/token/", {"username": name, "password": f"x{i}"},
                           content_type="application/json").status_code

    with ThreadPoolExecutor(max_workers=12) as pool:
        statuses = list(pool.map(attempt, range(60)))
    processed = [s for s in statuses if s != 429]
    assert len(processed) == 10 and set(processed) == {400}, sorted(statuses)
