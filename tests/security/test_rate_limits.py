"""Rate limits: log-in (per address and per account), sign-up/reset mails, moves by the game
page's forms (web/ratelimit.py) and by the API (DRF "actions" throttle) — at the real rates."""
import random
import time

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from web.ratelimit import limits
from matches.models import LogEntry
from tests.addresses import fresh_ip
from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db



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
    from web.ratelimit import DEFAULTS

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


def test_api_actions_are_throttled(make_user, monkeypatch):
    from api.throttles import ActionThrottle

    assert ActionThrottle().get_rate() == "600/min"
    # The count is a fixed clock minute (atomic, api/throttles.py): 601 requests can outlast the
    # 15 s of it the test is sure of on a loaded machine, so the rule runs at a tenth of its rate.
    monkeypatch.setattr(ActionThrottle, "THROTTLE_RATES", {**ActionThrottle.THROTTLE_RATES, "actions": "60/min"})
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    client = APIClient()
    mover = to_move_user(match)
    client.force_authenticate(mover)
    forget_counters(f"throttle_actions_{mover.pk}")  # user ids repeat across test databases
    try:
        statuses = [client.post(f"/api/matches/{match.pk}/actions/", {"action": {"type": "draw"}, "version": 99},
                                format="json").status_code for _ in range(61)]
        throttled = client.post(f"/api/matches/{match.pk}/actions/", {"action": {"type": "draw"}, "version": 99},
                                format="json")
    finally:  # user ids repeat in later tests: leave no counter behind
        forget_counters(f"throttle_actions_{mover.pk}")
    assert statuses[:60] == [409] * 60 and statuses[60] == 429
    assert throttled.json()["error"] == "throttled" and int(throttled["Retry-After"]) >= 1


# --- every content type, and under concurrency ------------------------------
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


# --- the admin's log-in ------------------------------------------------------------
def _admin_window_keys(name: str, ip: str) -> list[str]:
    window = int(time.time() // 900)
    return [f"rl:admin-login:{name}@{ip}:{w}" for w in (window, window + 1)]


def test_admin_login_locks_the_account_from_that_address(django_user_model):
    """40 wrong passwords, then the right one, logged in before: now the 6th attempt of one
    account from one address is refused for the rest of the 15-minute window, right password
    or not, with a clear message; another address still gets in."""
    name = f"boss{random.randrange(10**9)}"  # counters are shared by concurrent test runs on Redis
    django_user_model.objects.create_superuser(name, f"{name}@example.org", "pw-Secret-123")
    ip = fresh_ip()
    cache.delete_many(_admin_window_keys(name, ip))
    limit = limits()["admin-login"]
    assert limit == 5
    client = Client(REMOTE_ADDR=ip)
    try:
        statuses = [client.post("/admin/login/?next=/admin/", {"username": name, "password": f"wrong{i}"}).status_code
                    for i in range(40)]
        right = client.post("/admin/login/?next=/admin/", {"username": name, "password": "pw-Secret-123"})
    finally:
        cache.delete_many(_admin_window_keys(name, ip))
    assert statuses[:limit] == [200] * limit and set(statuses[limit:]) == {429}
    assert right.status_code == 429 and int(right["Retry-After"]) >= 1
    assert b"Too many attempts" in right.content
    assert "_auth_user_id" not in client.session
    other = Client(REMOTE_ADDR=fresh_ip())
    ok = other.post("/admin/login/?next=/admin/", {"username": name, "password": "pw-Secret-123"})
    assert ok.status_code == 302 and other.get("/admin/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_parallel_api_actions_cannot_outrun_the_throttle(make_user, monkeypatch):
    """The API's "actions" throttle under concurrency (768 in 11 s against 600/min):
    60 actions at once against 10/min, exactly 10 reach the view. DRF's own throttle reads its
    list of timestamps, appends and writes it back, so parallel requests counted once (this test
    failed with it on the real path, where a Redis round trip lies between read and write; in
    memory the old read-append-write seldom interleaves, and the test passed there)."""
    import sys
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from api.throttles import ActionThrottle

    monkeypatch.setattr(ActionThrottle, "THROTTLE_RATES", {**ActionThrottle.THROTTLE_RATES, "actions": "10/min"})
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    mover = to_move_user(match)
    forget_counters(f"throttle_actions_{mover.pk}")
    cache.delete(f"throttle_actions_{mover.pk}")  # (DRF's own key, for the old code)
    barrier = threading.Barrier(12)
    # Switch threads often, as requests on many cores and a Redis round trip between read and
    # write interleave (on one thread the old read-append-write never raced).
    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)

    def attempt(i):
        client = APIClient()
        client.force_authenticate(mover)
        if i < 12:
            barrier.wait(timeout=10)
        return client.post(f"/api/matches/{match.pk}/actions/", {"action": {"type": "draw"}, "version": 99},
                           format="json").status_code

    try:
        with ThreadPoolExecutor(max_workers=12) as pool:
            statuses = list(pool.map(attempt, range(60)))
    finally:
        sys.setswitchinterval(old_interval)
        forget_counters(f"throttle_actions_{mover.pk}")
        cache.delete(f"throttle_actions_{mover.pk}")
    processed = [s for s in statuses if s != 429]
    assert len(processed) == 10 and set(processed) == {409}, sorted(statuses)
