"""Redis or the database gone, in-process: moves still commit quickly, nothing answers 500.
(The same against the real stack, with real stops and restarts: tests/drills/test_stack_drills.py.)"""
import socket
import time

import pytest
from django.db import OperationalError
from django.test import RequestFactory
from rest_framework.test import APIClient

from core.cache import ResilientRedisCache
from web.errors import server_error_or_unavailable
from matches.models import LogEntry
from tests.platform.helpers import start_minigame, to_move_user


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the with-block ends: connections are refused


def test_cache_fails_open_when_redis_is_down():
    cache = ResilientRedisCache(f"redis://127.0.0.1:{closed_port()}/7", {})
    t0 = time.perf_counter()
    assert cache.get("k") is None and cache.get("k", 5) == 5
    cache.set("k", 1)
    assert cache.add("k", 1) is False and cache.get_many(["k"]) == {}
    assert cache.count("k", 60) == 1  # a rate limit's counter: everyone passes
    assert time.perf_counter() - t0 < 2


@pytest.mark.django_db(transaction=True)
def test_moves_commit_quickly_while_redis_is_down(make_user, settings):
    """Channel layer and cache both point at a Redis that is not there: the API move (throttled
    through the cache, pushed through the layer after commit) answers 200 at once."""
    from channels import layers

    dead = f"redis://127.0.0.1:{closed_port()}/7"
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [{"address": dead}]}}}
    settings.CACHES = {"default": {"BACKEND": "core.cache.ResilientRedisCache", "LOCATION": dead}}
    layers.channel_layers.backends.clear()
    try:
        alice, bob = make_user("alice"), make_user("bob")
        match = start_minigame(alice, bob)
        client = APIClient()
        client.force_authenticate(to_move_user(match))
        t0 = time.perf_counter()
        r = client.post(f"/api/matches/{match.pk}/actions/", {"action": {"type": "draw"}, "version": 0}, format="json")
        elapsed = time.perf_counter() - t0
    finally:
        layers.channel_layers.backends.clear()
    assert r.status_code == 200, r.content
    assert r.json()["version"] == 1 and LogEntry.objects.filter(match=match).count() == 1
    assert elapsed < 2.0, f"the move took {elapsed:.2f}s with Redis down"


def test_lost_database_answers_503_not_500():
    rf = RequestFactory()
    for path, kind in (("/api/matches/1/actions/", "application/json"), ("/lobby/", "text/html")):
        try:
            raise OperationalError("connection refused")
        except OperationalError:
            response = server_error_or_unavailable(rf.get(path))
        assert response.status_code == 503 and response["Retry-After"] == "5"
        assert response["Content-Type"].startswith(kind)


@pytest.mark.django_db
def test_real_bugs_still_answer_500():
    rf = RequestFactory()
    try:
        raise KeyError("bug")
    except KeyError:
        response = server_error_or_unavailable(rf.get("/lobby/"))
    assert response.status_code == 500


@pytest.mark.django_db(transaction=True)
def test_resume_bots_queues_matches_whose_bot_task_was_lost(make_user, celery_worker):
    """As after a move made while the broker was down: a bot is to move and no task runs."""
    from datetime import timedelta

    from django.utils import timezone

    from matches.models import Match, Seat
    from matches.services import start_match
    from matches.tasks import resume_bots
    from tests.conftest import wait_for

    alice = make_user("alice")
    with pytest.MonkeyPatch.context() as mp:  # start without queuing the bot's task: as if it was lost
        mp.setattr("matches.tasks.play_bots.delay", lambda *a, **k: None)
        for seed in range(50):  # a seed where the bot opens
            match = start_match(game="kartenduell", entrants=[{"user": alice, "bot": "", "choices": {}},
                                                              {"user": None, "bot": "random-legal", "choices": {}}],
                                options={}, seed=seed)
            bot = match.seats.exclude(bot="").get().seat
            if match.to_move == [bot]:
                break
    assert match.to_move == [bot]
    assert resume_bots() == 0  # not yet: a fresh turn may still have its task on the way
    Seat.objects.filter(match=match).update(to_move_since=timezone.now() - timedelta(minutes=5))
    assert resume_bots() == 1
    wait_for(lambda: Match.objects.get(pk=match.pk).to_move == [1 - bot])
    if celery_worker is not None:  # let the task finish its after-commit work before the flush
        from config.celery import app

        wait_for(lambda: not any((app.control.inspect(timeout=0.5).active() or {"": [1]}).values()))


def test_a_channel_of_a_dropped_broker_connection_fails_as_a_lost_connection(settings):
    """The root of "Unrecoverable error: AttributeError 'NoneType' object has no attribute
    'hostname'": Celery's consumer drops a broken broker connection with
    ``Connection.collect()``, which sets the transport's ``client`` to None; a channel of it used
    afterwards (the gossip's restart, an acknowledgement) read its host from that None. It must
    fail as a connection error (Celery reconnects) — config/celery.py makes it so."""
    import redis
    from kombu import Connection
    from kombu.transport import redis as kombu_redis

    import config.celery  # noqa: F401  (the guard is installed with the Celery app)

    assert redis.exceptions.ConnectionError in kombu_redis.Transport.connection_errors
    if settings.REDIS_URL:  # the real sequence, on a live Redis
        conn = Connection(settings.REDIS_URL)
        channel = conn.default_channel
        conn.collect()
    else:
        channel = kombu_redis.Channel.__new__(kombu_redis.Channel)
        channel.connection = type("Collected", (), {"client": None})()
    with pytest.raises(redis.exceptions.ConnectionError):
        channel._connparams()
