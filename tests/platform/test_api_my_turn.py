"""GET /api/matches/ says ``my_turn`` rightly on every list, not only with ?mine=1."""
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.platform.helpers import start_minigame, to_move_user

pytestmark = pytest.mark.django_db


def test_my_turn_on_the_public_list_too(make_user):
    anna, bert, carl = make_user("anna"), make_user("bert"), make_user("carl")
    match = start_minigame(anna, bert)
    first = to_move_user(match)
    other = bert if first == anna else anna
    lists = ["/api/matches/", "/api/matches/?mine=1", "/api/matches/?status=active"]
    for user, expected in ((first, True), (other, False), (carl, False)):
        client = Client()
        client.force_login(user)
        for url in lists:
            rows = {r["id"]: r for r in client.get(url).json()}
            if match.pk in rows:
                assert rows[match.pk]["my_turn"] is expected, (user.username, url)
    assert Client().get("/api/matches/").json()[0]["my_turn"] is False  # anonymous: never


def test_public_list_queries_do_not_grow(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    client = Client()
    client.force_login(anna)
    start_minigame(anna, bert)

    def count():
        with CaptureQueriesContext(connection) as ctx:
            client.get("/api/matches/")
        return len(ctx.captured_queries)

    few = count()
    for _ in range(5):
        start_minigame(anna, bert)
    assert count() == few
