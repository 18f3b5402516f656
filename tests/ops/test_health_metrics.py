"""The health endpoint and the Prometheus metrics (platform/ops/), in both suite passes: on the
embedded default the Redis, broker and worker checks are skipped; on the real services they
read the real Redis and the worker the suite starts."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from clocks.models import TimeControl
from matches.models import Match
from ops import heartbeat, sockets
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db
REAL = bool(settings.REDIS_URL)


def scrape(client, **extra) -> dict:
    r = client.get("/metrics", **extra)
    assert r.status_code == 200, r.content
    samples = {}
    for family in text_string_to_metric_families(r.content.decode()):
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return samples


def test_healthy_site_answers_200_with_every_check(client, request):
    if REAL:
        request.getfixturevalue("celery_worker")  # its heartbeat is part of health
        deadline = time.monotonic() + 15
        while heartbeat.newest_age() is None and time.monotonic() < deadline:
            time.sleep(0.2)
    r = client.get("/health/")
    body = r.json()
    assert r.status_code == 200, body
    assert body["status"] == "ok" and body["failing"] == []
    assert set(body["checks"]) == {"database", "redis", "broker", "worker", "followups"}
    if REAL:  # the real worker's main process writes its heartbeat every 5 s
        assert body["checks"]["worker"]["age_s"] < 10
        assert "celery" in body["checks"]["broker"]["queued"]
    else:
        assert body["checks"]["redis"] == {"ok": True, "skipped": True, "ms": body["checks"]["redis"]["ms"]}


def test_a_lagging_follow_up_fails_health_with_503(client, make_user):
    match = start_minigame(make_user("ann"), make_user("ben"))
    Match.objects.filter(pk=match.pk).update(version=3, updated_at=timezone.now() - timedelta(minutes=5))
    TimeControl.objects.filter(match_id=match.pk).update(version=1)
    r = client.get("/health/")
    assert r.status_code == 503
    body = r.json()
    assert "followups" in body["failing"]
    assert body["checks"]["followups"]["pending"] == 1 and body["checks"]["followups"]["lag_s"] >= 299


def test_redis_away_fails_health_with_503(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = settings.REDIS_URL
    r = client.get("/health/")
    assert r.status_code == 503
    body = r.json()
    assert {"redis", "broker", "worker"} <= set(body["failing"])
    assert "ConnectionError" in body["checks"]["redis"]["error"]


def test_a_stale_heartbeat_is_a_failing_worker():
    if not REAL:
        assert heartbeat.newest_age() is None
        return
    heartbeat.beat("stale@test", now=time.time() - 1000)
    assert heartbeat.newest_age(now=time.time() + 1000) > 1000


def test_metrics_only_for_allowed_addresses_or_the_token(client, settings):
    r = client.get("/metrics", REMOTE_ADDR="203.0.113.9")
    assert r.status_code == 403 and r.json()["error"] == "forbidden"
    settings.METRICS_TOKEN = "s3cret"
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer s3cret").status_code == 200


def test_metrics_in_prometheus_format(client, make_user):
    match = start_minigame(make_user("cid"), make_user("dora"))
    samples = scrape(client)
    assert samples[("spieltisch_up", (("check", "database"),))] == 1.0
    assert samples[("spieltisch_log_entries_total", ())] >= 0
    assert ("spieltisch_followup_lag_seconds", ()) in samples
    assert ("spieltisch_mail_backlog", ()) in samples
    assert ("spieltisch_sockets", ()) in samples
    if REAL:
        assert ("spieltisch_queue_depth", (("queue", "celery"),)) in samples
    del match


def test_sockets_are_counted_while_open(make_user):
    user = make_user("erin")

    async def scenario():
        comm = WebsocketCommunicator(__import__("config.asgi", fromlist=["application"]).application,
                                     "/ws/me/", headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")])
        comm.scope["user"] = user
        before = sockets.local()
        connected, _ = await comm.connect()
        assert connected
        during = sockets.local()
        await comm.disconnect()
        return before, during, sockets.local()

    before, during, after = async_to_sync(scenario)()
    assert (during - before, after - before) == (1, 0)
