"""CSRF: every endpoint refuses a POST without a token from a signed-in browser (403), and
every POST form in every template carries {% csrf_token %}."""
import re
from pathlib import Path

import pytest
from django.test import Client

from tests.addresses import fresh_ip
from tests.security.routes import all_routes

pytestmark = pytest.mark.django_db
# One-click unsubscribe (RFC 8058): mail clients POST it without a session or CSRF token; the
# signed token in the URL is the authorization, and it can only unsubscribe its own address.
TOKEN_AUTHORIZED = {"unsubscribe"}
ROOT = Path(__file__).resolve().parents[2]
FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.S | re.I)


def filled(route) -> str | None:
    if route.is_admin and route.params:
        return None
    return route.url(**{name: (1 if conv == "int" else "zz") for conv, name in route.params})


def test_every_endpoint_refuses_a_post_without_token(make_user):
    user = make_user("alice")
    address = fresh_ip()
    accepted = []
    for route in all_routes():
        url = filled(route)
        if url is None or route.name in TOKEN_AUTHORIZED:
            continue
        # A private address: the log-in doors' rate limit counts failed POSTs per address in the
        # shared cache (Redis on the real path), and other tests fail log-ins from 127.0.0.1 in
        # the same minute; a 429 there would hide whether the CSRF check refuses.
        client = Client(enforce_csrf_checks=True, REMOTE_ADDR=address)
        client.force_login(user)  # a session cookie: exactly what a forged cross-site POST carries
        r = client.post(url, {"x": "1"})
        if r.status_code != 403:
            accepted.append(f"{url}: {r.status_code}")
    assert not accepted, "POST without CSRF token not refused:\n" + "\n".join(accepted)


def test_a_post_with_the_token_passes_the_check(make_user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("bob"))
    client.get("/lobby/")
    token = client.cookies["csrftoken"].value
    r = client.post("/accounts/profile/", {"csrfmiddlewaretoken": token})
    assert r.status_code != 403


def test_every_post_form_in_the_templates_has_a_token():
    missing = []
    for path in [*ROOT.glob("platform/*/templates/**/*.html"), *ROOT.glob("frontend/templates/**/*.html"),
                 *ROOT.glob("accounts/templates/**/*.html"), *ROOT.glob("games/*/templates/**/*.html")]:
        if path.name == "unsubscribe.html" and "notifications" in path.parts:
            continue  # TOKEN_AUTHORIZED
        for form in FORM.findall(path.read_text()):
            head = form[:form.index(">") + 1].lower()
            if 'method="post"' in head or "hx-post" in head or "method='post'" in head:
                if "csrf_token" not in form:
                    missing.append(f"{path.relative_to(ROOT)}: {head[:100]}")
    assert not missing, "\n".join(missing)
