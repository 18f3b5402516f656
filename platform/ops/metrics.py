"""Prometheus metrics (prometheus_client's text format), gathered when scraped: nothing is
counted on the move path. Moves/s is ``rate(spieltisch_log_entries_total[1m])``: the log's
highest id, a counter kept by PostgreSQL's sequence."""
from __future__ import annotations

import logging

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from . import backlog, checks, heartbeat, sockets

logger = logging.getLogger(__name__)


def _log_entries() -> int:
    from matches.models import LogEntry

    return LogEntry.objects.order_by("-id").values_list("id", flat=True).first() or 0


class SiteCollector:
    def collect(self):
        health = checks.run_all()
        up = GaugeMetricFamily("spieltisch_up", "1 if the health check passes", labels=["check"])
        for name, result in health["checks"].items():
            up.add_metric([name], 1.0 if result["ok"] else 0.0)
        yield up
        fu = health["checks"]["followups"]
        if "pending" in fu:
            yield GaugeMetricFamily("spieltisch_followup_backlog", "changes whose follow-up has not run",
                                    value=fu["pending"])
            yield GaugeMetricFamily("spieltisch_followup_lag_seconds", "age of the oldest pending follow-up",
                                    value=fu["lag_s"])
        wk = health["checks"]["worker"]
        if wk.get("age_s") is not None:
            yield GaugeMetricFamily("spieltisch_worker_heartbeat_age_seconds",
                                    "seconds since the newest worker heartbeat", value=wk["age_s"])
        for name, read in (("log", _log_entries), ("queues", backlog.queue_depths), ("mail", backlog.mail_backlog),
                           ("sockets", sockets.total), ("beat", heartbeat.beat_age)):
            try:
                value = read()
            except Exception as exc:  # one part away: the others are still reported
                logger.warning("metric %s not read: %s", name, exc)
                continue
            if name == "log":
                yield CounterMetricFamily("spieltisch_log_entries", "match log entries written (moves, undos, "
                                          "resignations)", value=value)
            elif name == "queues":
                depth = GaugeMetricFamily("spieltisch_queue_depth", "messages waiting in a Celery queue",
                                          labels=["queue"])
                for queue, n in value.items():
                    depth.add_metric([queue], n)
                yield depth
            elif name == "mail":
                yield GaugeMetricFamily("spieltisch_mail_backlog", "e-mails due and not sent", value=value)
            elif name == "sockets":
                yield GaugeMetricFamily("spieltisch_sockets", "websockets held by all server processes",
                                        value=value[0])
                yield GaugeMetricFamily("spieltisch_socket_processes", "server processes reporting sockets",
                                        value=value[1])
            elif value is not None:
                yield GaugeMetricFamily("spieltisch_beat_heartbeat_age_seconds",
                                        "seconds since beat's heartbeat task last ran", value=value)


REGISTRY = CollectorRegistry(auto_describe=False)
REGISTRY.register(SiteCollector())


def render() -> bytes:
    return generate_latest(REGISTRY)
