import re

import pytest
from django.core import mail

pytestmark = pytest.mark.django_db


def test_sign_up_sets_language_and_logs_in(client):
    r = client.post("/accounts/signup/", {"username": "neu", "email": "neu@example.org", "language": "de",
                                          "password1": "Lange-Passphrase-9", "password2": "Lange-Passphrase-9"})
    assert r.status_code == 302
    html = client.get("/lobby/").content.decode()
    assert "Willkommen" in html and "Abmelden" in html


def test_sign_up_errors_are_form_errors(client, make_user):
    make_user("taken")
    r = client.post("/accounts/signup/", {"username": "taken", "email": "taken@example.org", "language": "en",
                                          "password1": "123", "password2": "124"})
    html = r.content.decode()
    assert r.status_code == 200 and "errorlist" in html
    assert "already exists" in html  # the user name: public anyway (profiles)
    assert "exists already" not in html  # the address: never told (tests/accounts/test_verification.py)


def test_log_in_and_out(client, make_user):
    make_user("ida")
    r = client.post("/accounts/login/", {"username": "ida", "password": "pw-Secret-123"})
    assert r.status_code == 302 and r.url == "/my-games/"
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/my-games/").status_code == 302
    r = client.post("/accounts/login/", {"username": "ida", "password": "wrong"})
    assert r.status_code == 200 and "errorlist" in r.content.decode()


def test_password_reset_by_mail(client, make_user):
    make_user("vergesslich")
    client.post("/accounts/password/reset/", {"email": "vergesslich@example.org"})
    assert len(mail.outbox) == 1
    # The link points to the site's own address (web/served.py), not the request's host.
    path = re.search(r"http://[^/\s]+(/accounts/password/reset/\S+/)", mail.outbox[0].body).group(1)
    r = client.get(path, follow=True)
    form_url = r.redirect_chain[-1][0] if r.redirect_chain else path
    r = client.post(form_url, {"new_password1": "Neues-Passwort-77", "new_password2": "Neues-Passwort-77"})
    assert r.status_code == 302
    assert client.login(username="vergesslich", password="Neues-Passwort-77")


def test_profile_language_and_time_zone(client, make_user):
    user = make_user("paula")
    client.force_login(user)
    r = client.post("/accounts/profile/", {"display_name": "Paula P.", "language": "de",
                                           "timezone": "America/New_York", "email": "p@example.org"})
    assert r.status_code == 302
    user.refresh_from_db()
    assert (user.profile.display_name, user.profile.language, user.profile.timezone, user.email) == \
        ("Paula P.", "de", "America/New_York", "p@example.org")
    assert "Dein Profil" in client.get("/accounts/profile/").content.decode()
    r = client.post("/accounts/profile/", {"display_name": "x", "language": "fr", "timezone": "Mars/Base",
                                           "email": "bad"})
    assert r.status_code == 200 and r.content.decode().count("errorlist") >= 3
