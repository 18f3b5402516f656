"""The chat API: post and list since a line id, with the page's rules
(length, rate limit, blocks, a moderator's mute), in the OpenAPI schema, and over the match
socket too."""
import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from community import services as community
from config.asgi import application
from matches.models import ChatMessage
from moderation import services as moderation
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db


def _client(user=None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def test_post_and_list_since_a_line(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = start_minigame(alice, bob)
    url = f"/api/matches/{match.pk}/chat/"
    first = _client(alice).post(url, {"text": "  hello @bob  "}, format="json")
    assert first.status_code == 201, first.content
    line = first.json()
    assert set(line) == {"id", "user", "text", "at"} and (line["user"], line["text"]) == ("alice", "hello @bob")
    second = _client(bob).post(url, {"text": "hi"}, format="json").json()
    # Everyone who may watch reads it (a public match: also a stranger, also signed out).
    for reader in (alice, carol, None):
        lines = _client(reader).get(url).json()
        assert [(x["id"], x["user"], x["text"]) for x in lines] == [
            (line["id"], "alice", "hello @bob"), (second["id"], "bob", "hi")]
    assert [x["id"] for x in _client(carol).get(f"{url}?since={line['id']}").json()] == [second["id"]]
    assert _client(carol).get(f"{url}?since={second['id']}").json() == []
    bad = _client(carol).get(f"{url}?since=x")
    assert bad.status_code == 400 and set(bad.json()) >= {"error", "detail"}
    # Only the seated write; the refusal is the API's JSON error.
    refused = _client(carol).post(url, {"text": "let me in"}, format="json")
    assert refused.status_code == 403 and refused.json()["error"] == "not_seated"
    assert _client().post(url, {"text": "anon"}, format="json").status_code in (401, 403)
    assert ChatMessage.objects.filter(match=match).count() == 2


def test_the_page_rules_hold(make_user, settings):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    url = f"/api/matches/{match.pk}/chat/"
    for body, code in (({"text": ""}, "illegal_action"), ({"text": "x" * 501}, "illegal_action"),
                       ({"text": 5}, "illegal_action"), ([1], "illegal_action")):
        r = _client(alice).post(url, body, format="json")
        assert (r.status_code, r.json()["error"]) == (400, code), body
    community.block(bob, "alice")
    r = _client(alice).post(url, {"text": "hi"}, format="json")
    assert (r.status_code, r.json()["error"]) == (403, "blocked")
    community.unblock(bob, "alice")
    moderation.mute(alice, days=1)
    r = _client(alice).post(url, {"text": "hi"}, format="json")
    assert (r.status_code, r.json()["error"]) == (403, "muted")
    assert not ChatMessage.objects.exists()


def test_the_page_rate_limit_counts_api_posts(make_user, settings, client):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    settings.RATE_LIMITS = {"chat-user": 2}
    client.force_login(bob)  # one count per user: the page's form and the API share it
    assert client.post(f"/matches/{match.pk}/chat/", {"text": "page"}).status_code < 400
    api = APIClient()
    api.force_login(bob)
    answers = [api.post(f"/api/matches/{match.pk}/chat/", {"text": f"line {i}"}, format="json") for i in range(2)]
    assert [a.status_code for a in answers] == [201, 429]
    assert answers[1].json()["error"] == "throttled"


def test_a_private_match_chat_answers_as_a_missing_one(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = start_minigame(alice, bob, private=True, invitees=["bob"])
    _client(alice).post(f"/api/matches/{match.pk}/chat/", {"text": "secret"}, format="json")
    for method in ("get", "post"):
        private = getattr(_client(carol), method)(f"/api/matches/{match.pk}/chat/", {"text": "x"}, format="json")
        missing = getattr(_client(carol), method)(f"/api/matches/{match.pk + 999}/chat/", {"text": "x"}, format="json")
        assert (private.status_code, private.json()) == (missing.status_code, missing.json()), method


def test_the_schema_describes_the_chat():
    paths = APIClient().get("/api/schema/?format=json").json()["paths"]
    assert {"get", "post"} <= set(paths["/api/matches/{id}/chat/"])


@pytest.mark.django_db(transaction=True)
def test_a_chat_line_over_the_match_socket(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)

    def socket(user):
        comm = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/",
                                     headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")])
        comm.scope["user"] = user
        return comm

    async def until(comm, kind):
        while True:
            frame = json.loads(await comm.receive_from(timeout=5))
            if frame["type"] == kind:
                return frame

    async def scenario():
        mine, theirs = socket(alice), socket(bob)
        assert (await mine.connect())[0] and (await theirs.connect())[0]
        await mine.send_to(text_data=json.dumps({"type": "chat", "text": "over the socket", "ref": "c1"}))
        said = await until(mine, "said")
        line = await until(theirs, "chat")
        await mine.send_to(text_data=json.dumps({"type": "chat", "text": "", "ref": "c2"}))
        refused = await until(mine, "refused")
        await mine.disconnect()
        await theirs.disconnect()
        return said, line, refused

    said, line, refused = async_to_sync(scenario)()
    message = ChatMessage.objects.get(match=match)
    assert said == {"type": "said", "ref": "c1", "id": message.pk}
    assert (line["id"], line["user"], line["text"]) == (message.pk, "alice", "over the socket")
    assert (refused["status"], refused["error"]) == (400, "illegal_action")
