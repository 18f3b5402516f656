"""Every route that takes an id answers a private thing exactly as a missing one
(docs/security.md "Existence"): status, error code, text, headers and redirects, for a
signed-in stranger and for a visitor, by GET and by POST. The routes come from the URLconf
(tests/security/routes.py): a new route with an id fails here until its kind of thing is named
below (how to make a private one) or exempted with a reason."""
from __future__ import annotations

import difflib
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from lobby import services as lobby
from lobby.models import SubstituteOffer
from tests.platform.helpers import start_minigame
from tests.security.routes import all_routes

pytestmark = pytest.mark.django_db

# What each route's id names: (pattern prefix, kind). The first that matches.
KINDS = [
    (r"^(api/)?matches/<int:pk>/", "match"),
    (r"^learn/matches/<int:pk>/", "match"),
    (r"^matches/<int:pk>/export\.json$", "match"),
    (r"^(api/)?invitations/<int:pk>/", "invitation"),
    (r"^(api/)?substitutes/<int:pk>/", "offer"),
    (r"^notifications/<int:pk>/", "notification"),
    (r"^(api/)?orden/decks/<int:pk>/", "deck"),
]
# Routes with a parameter that names nothing private, and why.
EXEMPT = {
    r"^(api/)?tournaments/<int:pk>/": "tournaments are public: every one is listed for everyone",
    r"^(api/)?(rankings|stats|learn|games)/<slug:game>/": "a game slug names a public game",
    r"^invitations/new/<slug:game>/$": "a game slug names a public game",
    r"^(api/)?(users|players)/<str:username>/": "profiles are public (a block hides nothing of existence)",
    r"^friends/<str:verb>/$": "a verb, not a thing",
    r"^accounts/email/confirm/<str:token>/$": "the token is the secret; a wrong one is refused alike",
    r"^accounts/password/reset/<uidb64>/<token>/$": "Django's own reset link: uid and token checked together",
    r"^notifications/unsubscribe/<str:token>/$": "a signed token: any unknown one is refused alike",
    r"^admin/": "the admin is for staff only",
    r"^author/hotseat/": "the game author's tool (GAME_AUTHOR_TOOLS, off on a site): its author's own matches",
}
VOLATILE = {"Date", "Content-Length", "Set-Cookie", "Expires", "Last-Modified", "ETag", "X-Request-Id"}


def _kind(pattern: str) -> str | None:
    return next((kind for prefix, kind in KINDS if re.match(prefix, pattern)), None)


def _exempt(pattern: str) -> bool:
    return any(re.match(prefix, pattern) for prefix in EXEMPT)


def id_routes():
    return [r for r in all_routes() if r.params]


def test_every_id_route_is_walked_or_exempted():
    unknown = [r.pattern for r in id_routes() if _kind(r.pattern) is None and not _exempt(r.pattern)]
    assert not unknown, f"routes with an id but no private kind named in {__file__}: {unknown}"


@pytest.fixture
def private_things(make_user):
    from notifications.models import Notification
    from games.orden.web.models import SavedDeck

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = start_minigame(alice, bob, players=2, private=True, invitees=["bob"])
    invitation = lobby.create_invitation(alice, game="kartenduell", players=3, private=True, invitees=["bob"])
    offer = SubstituteOffer.objects.create(match=match, seat=0, leaver=alice, reason="resigned",
                                           expires_at=timezone.now() + timedelta(days=1))
    note = Notification.objects.create(user=alice, kind="your_turn", match=match, key="k", data={})
    deck = SavedDeck.objects.create(owner=alice, name="Mine", pfad=[], cards=[])
    return carol, {"match": match.pk, "invitation": invitation.pk, "offer": offer.pk, "notification": note.pk,
                   "deck": deck.pk}


def _shape(response, ident: int) -> tuple:
    def scrub(text: str) -> str:  # the id in a path (a link, a redirect), and the per-request CSRF token
        text = re.sub(rf"(?<=/){ident}(?=[/.?#\"'&]|$)", "<id>", text)
        return re.sub(r"\b[A-Za-z0-9]{64}\b", "<csrf>", text)

    headers = {k: scrub(v) for k, v in response.headers.items() if k not in VOLATILE}
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response.status_code, headers, scrub(body.decode("utf-8", "replace"))


def _values(route, ident: int) -> dict:
    return {name: ident if conv == "int" and name == "pk" else (1 if conv == "int" else "x")
            for conv, name in route.params}


def test_a_private_thing_answers_as_a_missing_one(private_things, settings):
    settings.RATE_LIMITS = {rule: 100_000 for rule in ("match-post", "chat-user", "invitation-user", "deck-user")}
    carol, things = private_things
    missing = 10 ** 6 + 7  # same answer whatever the number: ids are scrubbed before comparing
    signed_in = Client()
    signed_in.force_login(carol)
    session = signed_in.cookies["sessionid"].value

    def client(who: str) -> Client:  # a fresh one per request: no flash message (a cookie) carries over
        c = Client()
        if who == "stranger":
            c.cookies["sessionid"] = session
        return c

    differ = []
    walked = 0
    for route in id_routes():
        kind = _kind(route.pattern)
        if kind is None:
            continue
        private_url, missing_url = route.url(**_values(route, things[kind])), route.url(**_values(route, missing))
        for who in ("stranger", "visitor"):
            for method in ("get", "post"):
                a = _shape(getattr(client(who), method)(private_url), things[kind])
                b = _shape(getattr(client(who), method)(missing_url), missing)
                walked += 1
                if a != b:
                    lines = [line for line in difflib.unified_diff(a[2].splitlines(), b[2].splitlines(), n=0,
                                                                   lineterm="") if line[:1] in "+-"]
                    differ.append(f"{method.upper()} {route.pattern} ({who}): {a[0]} / {b[0]}, headers "
                                  f"{sorted(set(a[1].items()) ^ set(b[1].items()))}, body {lines[:6]}")
    assert walked > 100
    assert not differ, "\n".join(differ)


def test_a_report_of_a_private_thing_answers_as_of_a_missing_one(private_things, make_user):
    """Ids in a body too: a report naming a private match's chat line (or the match) is refused
    exactly as one naming a line (or match) that does not exist."""
    from rest_framework.test import APIClient

    from matches import chat
    from matches.models import Match

    carol, things = private_things
    alice = Match.objects.get(pk=things["match"]).seats.filter(user__username="alice").get().user
    line = chat.post(things["match"], alice, "our secret plan")
    api = APIClient()
    api.force_authenticate(carol)
    for field, private in (("chat", line.pk), ("match", things["match"])):
        answers = [api.post("/api/reports/", {field: ident, "user": "alice", "reason": "spam"}, format="json")
                   for ident in (private, 10 ** 6 + 7)]
        assert [(a.status_code, a.json()) for a in answers][0] == [(a.status_code, a.json()) for a in answers][1], field
