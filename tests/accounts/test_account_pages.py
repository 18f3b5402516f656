"""The account pages: log-in, sign-up, password reset and change, e-mail confirmation
in the site's own frame and words, in English and German, never Django's admin templates; the
reset mail in the site's words and the account's language, through a real SMTP server."""
import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.addresses import fresh_ip
from tests.notifications.helpers import SmtpServer, body

pytestmark = [pytest.mark.django_db]
PASSWORD = "Lange-Passphrase-9"

ANONYMOUS = {  # url -> (English heading, German heading)
    "/accounts/login/": ("Log in", "Anmelden"),
    "/accounts/signup/": ("Create an account", "Konto anlegen"),
    "/accounts/password/reset/": ("Reset your password", "Passwort zurücksetzen"),
    "/accounts/password/reset/done/": ("Check your e-mail", "Schau in dein Postfach"),
    "/accounts/password/reset/MQ/bad-token/": ("Choose a new password", "Neues Passwort wählen"),
    "/accounts/password/reset/complete/": ("Password changed", "Passwort geändert"),
    "/accounts/email/confirm/not-a-token/": ("Confirm your e-mail address", "E-Mail-Adresse bestätigen"),
}
SIGNED_IN = {
    "/accounts/password/change/": ("Change password", "Passwort ändern"),
    "/accounts/password/change/done/": ("Password changed", "Passwort geändert"),
    "/accounts/profile/": ("Your profile", "Dein Profil"),
}


def _client(lang: str) -> Client:
    client = Client(REMOTE_ADDR=fresh_ip())
    client.cookies["django_language"] = lang
    return client


def _check_page(response, heading: str) -> None:
    names = [t.name for t in response.templates if t.name]
    html = response.content.decode()
    assert response.status_code == 200, response.status_code
    assert "base.html" in names, names
    assert not [n for n in names if n.startswith(("admin/", "registration/"))], names
    assert "Django" not in html and "testserver" not in html
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert title.strip().endswith("· Spieltisch"), title
    assert re.search(r'class="brand"[^>]*>Spieltisch</a>', html)
    assert f"<h1>{heading}</h1>" in html, heading


@pytest.mark.parametrize("lang", ["en", "de"])
def test_account_pages_use_the_site_frame_and_words(lang, make_user):
    index = 0 if lang == "en" else 1
    anonymous = _client(lang)
    for url, headings in ANONYMOUS.items():
        _check_page(anonymous.get(url), headings[index])
    user = make_user(f"leser-{lang}")
    user.profile.language = lang
    user.profile.save()
    signed_in = _client(lang)
    signed_in.force_login(user)
    for url, headings in SIGNED_IN.items():
        _check_page(signed_in.get(url), headings[index])


@pytest.fixture
def smtp(settings):
    server = SmtpServer().start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.SITE_URL = "https://spieltisch.example"
    yield server.sink
    server.stop()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_password_reset_end_to_end_through_smtp(lang, smtp):
    address = f"vergesslich-{uuid.uuid4().hex[:8]}@example.org"
    user = get_user_model().objects.create_user(f"vergesslich-{lang}", email=address, password=PASSWORD)
    user.profile.language = lang
    user.profile.save()
    client = _client("en" if lang == "de" else "de")  # the page's language is not the mail's
    r = client.post("/accounts/password/reset/", {"email": address.upper()})
    assert r.status_code == 302 and r.url == "/accounts/password/reset/done/"
    [msg] = smtp.to(address)
    text = body(msg)
    html = msg.get_body(preferencelist=("html",)).get_content()
    if lang == "de":
        assert msg["Subject"] == "Spieltisch: Wähle ein neues Passwort"
        assert text.startswith(f"Hallo {user.username},") and "Neues Passwort wählen" in html
    else:
        assert msg["Subject"] == "Spieltisch: choose a new password"
        assert text.startswith(f"Hello {user.username},") and "Choose a new password" in html
    assert "Django" not in text and "127.0.0.1" not in text
    link = re.search(r"https://spieltisch\.example(/accounts/password/reset/\S+/)", text).group(1)
    assert f'href="https://spieltisch.example{link}"' in html
    r = client.get(link, follow=True)
    form_url = r.redirect_chain[-1][0]
    _check_page(r, "Choose a new password" if lang == "de" else "Neues Passwort wählen")
    r = client.post(form_url, {"new_password1": "Neues-Passwort-77", "new_password2": "Neues-Passwort-77"})
    assert r.status_code == 302 and r.url == "/accounts/password/reset/complete/"
    assert client.get(link, follow=True).context["validlink"] is False  # the link works once
    assert Client().login(username=user.username, password="Neues-Passwort-77")
