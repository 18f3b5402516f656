"""The OpenAPI schema (/api/schema/) says what the API returns. Every GET
endpoint's 200 answer has the top-level type its schema documents (an array where the API
returns an array), and a match's ``status`` is an enum that includes "aborted" (a tournament
official's stop, tournaments/matchstop.py: the contract extended and documented)."""
import pytest
from django.test import Client

from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db


def schema_of(schema: dict, path: str) -> dict:
    answer = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    while "$ref" in answer:
        answer = schema["components"]["schemas"][answer["$ref"].rsplit("/", 1)[-1]]
    return answer


def test_list_endpoints_are_documented_as_arrays(make_user):
    a, b = make_user("alice"), make_user("bob")
    match = start_minigame(a, b)
    client = Client()
    client.force_login(a)
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    values = {"{id}": str(match.pk), "{pk}": str(match.pk), "{game}": match.game, "{username}": "alice",
              "{slug}": match.game}
    wrong = []
    for path, ops in schema["paths"].items():
        if "get" not in ops or path in ("/api/schema/",):
            continue
        url = path
        for k, v in values.items():
            url = url.replace(k, v)
        if "{" in url:
            continue
        r = client.get(url)
        if r.status_code != 200 or "json" not in r.get("Content-Type", ""):
            continue
        documented = schema_of(schema, path).get("type", "object")
        returned = "array" if isinstance(r.json(), list) else "object"
        if documented != returned:
            wrong.append((path, documented, returned))
    assert wrong == [], "\n".join(map(str, wrong))


def test_match_status_is_a_documented_enum():
    from matches.models import Match

    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    status = schema["components"]["schemas"]["Match"]["properties"]["status"]
    status = status.get("allOf", [status])[0]  # a described $ref comes wrapped in allOf
    while "$ref" in status:
        status = schema["components"]["schemas"][status["$ref"].rsplit("/", 1)[-1]]
    assert set(status["enum"]) == {"active", "finished", "aborted"} == set(Match.Status.values)
