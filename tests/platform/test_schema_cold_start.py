"""12 concurrent first requests to /api/schema/ after a restart (3 × 500 while
drf-spectacular loaded its extensions): all answer 200, and the schema is built once."""
import threading

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from api import schema


@pytest.mark.django_db(transaction=True)
def test_concurrent_first_schema_requests(monkeypatch):
    monkeypatch.setattr(schema, "_built", {})  # a process that has not built it yet
    builds = []
    build = SchemaGenerator.get_schema

    def counted(self, *args, **kwargs):
        builds.append(1)
        return build(self, *args, **kwargs)

    monkeypatch.setattr(SchemaGenerator, "get_schema", counted)
    start, statuses = threading.Barrier(12), []

    def fetch():
        client = Client()
        start.wait()
        statuses.append(client.get("/api/schema/", HTTP_ACCEPT="application/json").status_code)

    threads = [threading.Thread(target=fetch) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert statuses == [200] * 12
    assert len(builds) == 1
