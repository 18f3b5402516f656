"""Per-user limits on making the things that fill pages everyone reads —
invitations (the lobby), chat lines, tournaments — and decks. Counted atomically when made
(web/ratelimit.py), shared by the API and the pages, and a refused form does not count."""
import random
import time

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from web.ratelimit import DEFAULTS, WINDOWS
from lobby.models import Invitation
from matches.models import ChatMessage
from tests.addresses import fresh_ip
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db


@pytest.fixture
def real_limits(settings):
    """The production values (the suite raises them elsewhere), and no counter left over from
    another test whose user had the same id."""
    settings.RATE_LIMITS = {rule: DEFAULTS[rule] for rule in ("invitation-user", "chat-user", "tournament-user",
                                                              "deck-user")}
    left = 60 - time.time() % 60
    if left < 15:  # chat counts per clock minute: do not straddle two
        time.sleep(left + 0.05)
    yield settings.RATE_LIMITS


def token_client(user) -> APIClient:
    """An API client with a real token (the quota must see API clients as their user) from an
    address of its own (anonymous requests count per address, shared with other tests)."""
    api = APIClient(REMOTE_ADDR=fresh_ip())
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    for rule in ("invitation-user", "tournament-user"):
        forget(rule, user)
    return api


def forget(rule: str, user) -> None:
    seconds = WINDOWS.get(rule, 60)
    window = int(time.time() // seconds)
    cache.delete_many([f"rl:{rule}:u{user.pk}:{w}" for w in (window, window + 1)])


def test_invitations_per_user_are_limited_across_api_and_pages(real_limits, make_user):
    host = make_user(f"host{random.randrange(10**6)}")
    forget("invitation-user", host)
    limit = real_limits["invitation-user"]
    api = token_client(host)
    page = Client()
    page.force_login(host)
    statuses = []
    for i in range(limit):
        if i % 2:
            statuses.append(api.post("/api/invitations/", {"game": "kartenduell", "players": 2}, format="json")
                            .status_code)
        else:
            statuses.append(page.post("/invitations/new/kartenduell/", {"players": "2", "move_days": "3"})
                            .status_code)
    assert set(statuses) <= {201, 302}, statuses
    made = Invitation.objects.filter(host=host).count()
    assert made == limit
    r = api.post("/api/invitations/", {"game": "kartenduell", "players": 2}, format="json")
    assert r.status_code == 429 and r.json()["error"] == "throttled" and int(r["Retry-After"]) >= 1
    assert page.post("/invitations/new/kartenduell/", {"players": "2", "move_days": "3"}).status_code == 429
    assert Invitation.objects.filter(host=host).count() == limit
    # Somebody else is not affected.
    other = token_client(make_user(f"other{random.randrange(10**6)}"))
    assert other.post("/api/invitations/", {"game": "kartenduell", "players": 2}, format="json").status_code == 201
    forget("invitation-user", host)


def test_refused_invitations_do_not_count(real_limits, make_user):
    host = make_user(f"fumble{random.randrange(10**6)}")
    forget("invitation-user", host)
    api = token_client(host)
    for _ in range(real_limits["invitation-user"] + 5):
        assert api.post("/api/invitations/", {"game": "kartenduell", "players": 99}, format="json").status_code == 400
    assert api.post("/api/invitations/", {"game": "kartenduell", "players": 2}, format="json").status_code == 201
    forget("invitation-user", host)


def test_chat_lines_per_user_are_limited(real_limits, make_user):
    a, b = make_user(f"chatty{random.randrange(10**6)}"), make_user(f"quiet{random.randrange(10**6)}")
    match = start_minigame(a, b)
    forget("chat-user", a)
    forget("match-post", a)
    client = Client()
    client.force_login(a)
    limit = real_limits["chat-user"]
    statuses = [client.post(f"/matches/{match.pk}/chat/", {"text": f"line {i}"}).status_code
                for i in range(limit + 1)]
    assert 429 not in statuses[:limit] and statuses[limit] == 429
    assert ChatMessage.objects.filter(match=match, user=a).count() == limit
    forget("chat-user", a)
    forget("match-post", a)


def test_tournaments_per_user_are_limited(real_limits, make_user):
    organizer = make_user(f"orga{random.randrange(10**6)}")
    forget("tournament-user", organizer)
    api = token_client(organizer)
    limit = real_limits["tournament-user"]
    statuses = [api.post("/api/tournaments/", {"game": "kartenduell", "name": f"Cup {i}"}, format="json").status_code
                for i in range(limit + 1)]
    assert statuses == [201] * limit + [429], statuses
    forget("tournament-user", organizer)
