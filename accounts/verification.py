"""E-mail verification, and the sign-up and profile forms' silence about taken addresses.

An address is confirmed when its owner opens the signed link mailed to it: the link carries the
user's id and the address (django.core.signing, salted, valid ``MAX_AGE``), so a link for an
old address confirms nothing once the address changed. ``Profile.verified_email`` keeps the
confirmed address; notification mail goes only to a confirmed one (notifications/services.py,
notifications/mail.py). The site stays usable meanwhile.

Whether an address is taken is never shown: the form accepts it, the person who typed it sees
the same "we sent a link" message, and the address's owner gets a notice instead of a link.
"""
from __future__ import annotations

import hashlib
import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from web.served import site_url

logger = logging.getLogger(__name__)

SALT = "accounts.verify-email"
MAX_AGE = 3 * 24 * 3600  # seconds a confirmation link stays valid
RESEND_SECONDS = 60  # at most one confirmation mail per user per minute (resend button)
RECIPIENT_SECONDS = 60  # at most one account mail per address per minute (no mail bombing by forms)


class InvalidLink(Exception):
    """The link is forged, expired, or for an address the account no longer has."""


def is_verified(user) -> bool:
    # Compared here rather than through Profile.email_verified: the profile may come without
    # its user cached (the clocks' one-statement read), and the move path counts statements.
    profile = getattr(user, "profile", None)
    return profile is not None and bool(user.email) and profile.verified_email.lower() == user.email.lower()


def token(user) -> str:
    return signing.dumps({"u": user.pk, "e": user.email.lower()}, salt=SALT, compress=True)


def confirm(value: str):
    """Marks the address in the link confirmed and returns its user; InvalidLink otherwise."""
    try:
        data = signing.loads(value, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:  # also SignatureExpired
        raise InvalidLink from None
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=data.get("u"), is_active=True).first()
        if user is None or not user.email or user.email.lower() != data.get("e"):
            raise InvalidLink
        profile = user.profile
        if not profile.email_verified:
            profile.verified_email = user.email
            profile.save(update_fields=["verified_email"])
    return user


def address_taken(email: str, *, exclude_user_id: int | None = None) -> bool:
    others = get_user_model().objects.filter(email__iexact=email)
    if exclude_user_id is not None:
        others = others.exclude(pk=exclude_user_id)
    return others.exists()


def mail_language(user) -> str:
    profile = getattr(user, "profile", None)
    return (getattr(profile, "language", None) or settings.LANGUAGE_CODE)[:2]


def first_mail_to(to: str) -> bool:
    """True once per RECIPIENT_SECONDS and address (hashed: any address is a valid key)."""
    digest = hashlib.sha256(to.lower().encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return cache.add(f"account-mail:{digest}", 1, RECIPIENT_SECONDS)


def _send(to: str, lang: str, template: str, context: dict) -> None:
    if not first_mail_to(to):
        return
    site = site_url()
    with translation.override(lang):
        subject = " ".join(render_to_string(f"accounts/mail/{template}_subject.txt", context).split())
        body = render_to_string(f"accounts/mail/{template}.txt", {**context, "site_url": site})
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [to])
    except Exception:  # a mail server down must not fail the form; the resend button is there
        logger.exception("account mail %s not sent", template)


def send_confirmation(user, *, force: bool = True) -> bool:
    """Mails the confirmation link for the user's current address (after commit). A taken
    address gets the owner's notice instead. ``force=False`` (the resend button) sends at most
    one mail per ``RESEND_SECONDS``. Returns whether a mail was queued."""
    email = user.email
    if not email or is_verified(user):
        return False
    if not force and not cache.add(f"verify-mail:{user.pk}", 1, RESEND_SECONDS):
        return False
    if address_taken(email, exclude_user_id=user.pk):
        send_taken_notice(email)
        return True
    site = site_url()
    link = site + reverse("verify-email", args=[token(user)])
    lang, username = mail_language(user), user.username
    transaction.on_commit(lambda: _send(email, lang, "confirm", {"link": link, "username": username}))
    return True


def send_taken_notice(email: str) -> None:
    """Tells the owner of ``email`` that someone gave their address (instead of telling the
    person who typed it). Sent to the account that confirmed it, else to the address's first account."""
    holders = get_user_model().objects.filter(email__iexact=email).select_related("profile").order_by("pk")
    owner = next((u for u in holders if u.profile.email_verified), None) or holders.first()
    if owner is None:
        return
    lang, username, to = mail_language(owner), owner.username, owner.email
    transaction.on_commit(lambda: _send(to, lang, "taken", {"username": username}))


def mark_confirmed(users) -> None:
    """Marks the users' current addresses confirmed, in bulk (seeding of benchmarks and drills,
    whose made-up users stand for people who confirmed; users made by bulk_create have no
    profile yet: it is made here)."""
    from .models import Profile

    users = list(users)
    Profile.objects.bulk_create([Profile(user=u, verified_email=u.email) for u in users], ignore_conflicts=True,
                                batch_size=2000)
    profiles = list(Profile.objects.filter(user__in=[u.pk for u in users]).select_related("user"))
    for profile in profiles:
        profile.verified_email = profile.user.email
    Profile.objects.bulk_update(profiles, ["verified_email"], batch_size=2000)
