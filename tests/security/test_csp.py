"""Every page carries a Content-Security-Policy that allows scripts only from
our own files (no 'unsafe-inline', no eval), and the pages have nothing the policy would block:
no inline <script>, no on*= handlers, no javascript: URLs, no <style> elements (stylesheets are
files). /api/docs/swagger/ loads Swagger UI from the installed package, not from a CDN.
The browser companion, tests/browser/test_csp.py, loads the pages in chromium and listens for
violations."""
import re

import pytest
from django.test import Client

from tests.platform.helpers import start_minigame
from tests.security.routes import all_routes

pytestmark = pytest.mark.django_db
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/(?:ld\+)?json\")[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def policy(response) -> dict:
    header = response["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in (p.strip() for p in header.split(";")) if d}


def test_policy_forbids_inline_script(client):
    r = client.get("/lobby/")
    p = policy(r)
    assert p["script-src"] == ["'self'"]
    assert p["object-src"] == ["'none'"] and p["frame-ancestors"] == ["'none'"] and p["base-uri"] == ["'self'"]
    assert "'unsafe-inline'" not in p["default-src"] + p["style-src-elem"]
    assert all("'unsafe-eval'" not in v for v in p.values())
    # The websocket may connect to this host only.
    assert "'self'" in p["connect-src"] and "ws://testserver" in p["connect-src"]


@pytest.fixture
def pages(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_minigame(alice, bob)
    client = Client()
    client.force_login(alice)
    urls = [f"/matches/{match.pk}/", f"/matches/{match.pk}/live/", f"/matches/{match.pk}/replay/"]
    for route in all_routes():  # every page without a parameter
        if not route.params and not route.is_api and not route.is_admin and route.name not in ("logout",):
            urls.append(route.url())
    return client, urls


def test_pages_have_nothing_the_policy_blocks(pages):
    client, urls = pages
    problems = []
    for url in urls:
        r = client.get(url)
        if r.status_code != 200 or "html" not in r.get("Content-Type", ""):
            continue
        html = r.content.decode()
        for what, pattern in (("inline script", INLINE_SCRIPT), ("on*= handler", HANDLER),
                              ("javascript: URL", re.compile(r"=\s*[\"']\s*javascript:", re.I)),
                              ("<style> element", re.compile(r"<style[\s>]", re.I)),
                              ("hx-on", re.compile(r"\shx-on", re.I)),
                              ("htmx js: value (eval)", re.compile(r"hx-(?:vals|headers)=['\"]\s*(?:js|javascript):", re.I))):
            for m in pattern.finditer(html):
                problems.append(f"{url}: {what}: {html[m.start():m.start() + 80]!r}")
    assert not problems, "\n".join(problems)


def test_api_docs_come_from_the_package(client):
    r = client.get("/api/docs/swagger/")
    assert r.status_code == 200
    html = r.content.decode()
    assert "cdn" not in html.lower() and "//unpkg" not in html and "jsdelivr" not in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert not INLINE_SCRIPT.search(html) and "<style" not in html
    init = client.get("/api/docs/swagger/?script=")
    assert init.status_code == 200 and "SwaggerUIBundle" in init.content.decode()
    assert client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js").status_code == 200
