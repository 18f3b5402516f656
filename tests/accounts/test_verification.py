"""E-mail verification: no notification mail before the owner confirmed the
address, a changed address is confirmed again, and the forms never tell whether an address is
taken (its owner gets a notice). Real forms, real signing, real notification service; account
mails go to Django's test outbox."""
import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from accounts import verification
from notifications import services
from notifications.kinds import EMAIL, PUSH
from notifications.models import Delivery, Notification, PushSubscription
from tests.addresses import fresh_ip

pytestmark = [pytest.mark.django_db, pytest.mark.unconfirmed_mail]
PASSWORD = "Lange-Passphrase-9"


def _address(name: str) -> str:
    # Unique per test: the per-address mail pause (verification.RECIPIENT_SECONDS) lives in the cache.
    return f"{name}-{uuid.uuid4().hex[:8]}@example.org"


def _client() -> Client:
    return Client(REMOTE_ADDR=fresh_ip())


def _sign_up(client, username, email):
    return client.post("/accounts/signup/", {"username": username, "email": email, "language": "en",
                                             "password1": PASSWORD, "password2": PASSWORD}, follow=True)


def _link(message) -> str:
    return re.search(r"https?://\S+(/accounts/email/confirm/\S+/)", message.body).group(1)


def _turn(user, key):
    return services.notify(user, "your_turn", {"game": "minigame", "url": "/my-games/"}, key=key)


def _email_deliveries(user):
    return Delivery.objects.filter(notification__user=user, channel=EMAIL)


def test_no_notification_mail_before_the_address_is_confirmed(django_capture_on_commit_callbacks):
    client, address = _client(), _address("neu")
    with django_capture_on_commit_callbacks(execute=True):
        r = _sign_up(client, "neu", address)
    assert r.status_code == 200 and "Log out" in r.content.decode()
    user = get_user_model().objects.get(username="neu")
    assert [m.to for m in mail.outbox] == [[address]]  # the confirmation link, nothing else
    assert not verification.is_verified(user)

    _turn(user, "t1")  # the site works meanwhile: in-site notification, no mail
    assert Notification.objects.filter(user=user, key="t1").exists()
    assert not _email_deliveries(user).exists()

    link = _link(mail.outbox[0])
    assert client.get(link).status_code == 200  # a mail scanner's GET confirms nothing
    user.profile.refresh_from_db()
    assert not verification.is_verified(user)
    r = client.post(link)
    assert r.status_code == 302
    user = get_user_model().objects.get(pk=user.pk)
    assert verification.is_verified(user)
    _turn(user, "t2")
    assert _email_deliveries(user).count() == 1


def test_push_still_goes_to_an_unconfirmed_user():
    user = get_user_model().objects.create_user("pusher", email=_address("pusher"), password=PASSWORD)
    PushSubscription.objects.create(user=user, endpoint="https://push.example.org/x", p256dh="k", auth="a")
    _turn(user, "p1")
    assert list(Delivery.objects.filter(notification__user=user).values_list("channel", flat=True)) == [PUSH]


def test_changing_the_address_needs_a_new_confirmation(django_capture_on_commit_callbacks):
    old, new = _address("alt"), _address("neu")
    user = get_user_model().objects.create_user("wechsel", email=old, password=PASSWORD)
    old_link = verification.token(user)
    verification.confirm(old_link)
    client = _client()
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post("/accounts/profile/", {"display_name": "", "language": "en", "timezone": "Europe/Berlin",
                                               "email": new}, follow=True)
    assert r.status_code == 200 and "confirmation link" in r.content.decode()
    user = get_user_model().objects.get(pk=user.pk)
    assert user.email == new and not verification.is_verified(user)
    _turn(user, "c1")
    assert not _email_deliveries(user).exists()
    assert [m.to for m in mail.outbox] == [[new]]
    # The old address's link confirms nothing now.
    assert client.post(f"/accounts/email/confirm/{old_link}/").status_code == 400
    assert client.post(_link(mail.outbox[0])).status_code == 302
    assert verification.is_verified(get_user_model().objects.get(pk=user.pk))


def test_a_mail_written_before_the_address_changed_is_not_sent(settings):
    from notifications import mail as notification_mail

    user = get_user_model().objects.create_user("spaet", email=_address("spaet"), password=PASSWORD)
    verification.confirm(verification.token(user))
    user = get_user_model().objects.get(pk=user.pk)
    _turn(user, "late")
    delivery = _email_deliveries(user).get()
    Delivery.objects.filter(pk=delivery.pk).update(status=Delivery.Status.PENDING)
    user.email = _address("anders")
    user.save(update_fields=["email"])
    mail.outbox.clear()
    assert notification_mail.send_delivery(delivery.pk) == "unconfirmed"
    assert mail.outbox == []
    assert Delivery.objects.get(pk=delivery.pk).status == Delivery.Status.FAILED


def test_forged_or_foreign_links_confirm_nothing():
    user = get_user_model().objects.create_user("echt", email=_address("echt"), password=PASSWORD)
    good = verification.token(user)
    client = _client()
    for bad in (good[:-2] + "xx", "abc", good.replace(":", ":1", 1)):
        assert client.post(f"/accounts/email/confirm/{bad}/").status_code == 400
    assert not verification.is_verified(get_user_model().objects.get(pk=user.pk))


def test_sign_up_never_tells_that_an_address_is_taken(django_capture_on_commit_callbacks):
    taken = _address("besitzer")
    owner = get_user_model().objects.create_user("besitzer", email=taken, password=PASSWORD)
    pages = []
    for username, address in (("frisch", _address("frisch")), ("probe", taken.upper())):
        with django_capture_on_commit_callbacks(execute=True):
            r = _sign_up(_client(), username, address)
        assert r.redirect_chain and r.redirect_chain[-1][0] == "/lobby/"
        html = r.content.decode()
        assert "exists already" not in html
        pages.append(html.replace(username, "NAME"))
    # The same words for a free and a taken address.
    assert [re.findall(r'<li class="[^"]*" role="status">([^<]*)<', p) for p in pages[:1]] == \
        [re.findall(r'<li class="[^"]*" role="status">([^<]*)<', p) for p in pages[1:]]
    to_owner = [m for m in mail.outbox if m.to == [owner.email]]
    assert len(to_owner) == 1 and "/accounts/email/confirm/" not in to_owner[0].body
    assert "password" in to_owner[0].body and "besitzer" in to_owner[0].body
    prober = get_user_model().objects.get(username="probe")
    assert not verification.is_verified(prober)
    _turn(prober, "x")
    assert not _email_deliveries(prober).exists()  # nothing of the prober's reaches the owner


def test_profile_form_never_tells_that_an_address_is_taken(django_capture_on_commit_callbacks):
    taken = _address("erster")
    first = get_user_model().objects.create_user("erster", email=taken, password=PASSWORD)
    second = get_user_model().objects.create_user("zweiter", email=_address("zweiter"), password=PASSWORD)
    client = _client()
    client.force_login(second)
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post("/accounts/profile/", {"display_name": "", "language": "en", "timezone": "Europe/Berlin",
                                               "email": taken.upper()})
    assert r.status_code == 302
    assert [m.to for m in mail.outbox] == [[first.email]] and "/accounts/email/confirm/" not in mail.outbox[0].body


def test_password_reset_goes_to_one_account_of_a_shared_address():
    taken = _address("teilen")
    owner = get_user_model().objects.create_user("inhaber", email=taken, password=PASSWORD)
    get_user_model().objects.create_user("nachahmer", email=taken, password=PASSWORD)
    _client().post("/accounts/password/reset/", {"email": taken})
    assert len(mail.outbox) == 1 and "inhaber" in mail.outbox[0].body and "nachahmer" not in mail.outbox[0].body
    assert owner.pk


def test_sign_up_limit_counts_refused_attempts():
    from web.ratelimit import limits

    client, limit = _client(), limits()["signup-ip"]
    statuses = [client.post("/accounts/signup/", {"username": f"p{i}", "email": "bad", "language": "en",
                                                  "password1": "1", "password2": "2"}).status_code
                for i in range(30)]
    assert limit < 30 and statuses[:limit] == [200] * limit and set(statuses[limit:]) == {429}


def test_the_resend_button_sends_at_most_one_link_a_minute(django_capture_on_commit_callbacks):
    user = get_user_model().objects.create_user("ungeduld", email=_address("ungeduld"), password=PASSWORD)
    client = _client()
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            assert client.post("/accounts/email/resend/").status_code == 302
    assert len(mail.outbox) == 1 and "/accounts/email/confirm/" in mail.outbox[0].body


def test_accounts_from_before_get_their_links_by_command(django_capture_on_commit_callbacks):
    from io import StringIO

    from django.core.management import call_command

    old = get_user_model().objects.create_user("alt", email=_address("alt"), password=PASSWORD)
    done = get_user_model().objects.create_user("fertig", email=_address("fertig"), password=PASSWORD)
    verification.confirm(verification.token(done))
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("send_confirmations", stdout=out)
    assert "mailed 1" in out.getvalue() and [m.to for m in mail.outbox] == [[old.email]]


def test_seeded_users_of_benchmarks_can_be_marked_confirmed():
    User = get_user_model()
    User.objects.bulk_create([User(username=f"b{i}", email=_address(f"b{i}")) for i in range(3)])
    users = list(User.objects.filter(username__startswith="b").order_by("pk"))
    verification.mark_confirmed(users)
    users = list(User.objects.filter(username__startswith="b").select_related("profile"))
    assert all(verification.is_verified(u) for u in users)
    _turn(users[0], "seeded")
    assert _email_deliveries(users[0]).count() == 1
