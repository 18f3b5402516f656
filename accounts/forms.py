import logging

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from web.oneline import one_line

from web.served import site_url

from . import guests, verification
from .models import Profile

logger = logging.getLogger(__name__)


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("E-mail"), required=True,
                             help_text=_("For turn notifications and password resets."))
    language = forms.ChoiceField(label=_("Language"), choices=Profile._meta.get_field("language").choices)

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self):
        username = super().clean_username()
        if username and username.lower().startswith(guests.PREFIX):
            raise forms.ValidationError(_("Names starting with “%(prefix)s” are kept for guests.")
                                        % {"prefix": guests.PREFIX})
        return username

    # No clean_email: whether an address is taken is never shown (accounts/verification.py);
    # its owner gets a notice instead of the confirmation link.

    def save(self, commit=True):
        user = super().save(commit=commit)
        if commit:
            user.profile.language = self.cleaned_data["language"]
            user.profile.save(update_fields=["language"])
        return user


class ProfileForm(forms.ModelForm):
    email = forms.EmailField(label=_("E-mail"))

    class Meta:
        model = Profile
        fields = ("display_name", "language", "timezone")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["display_name"].validators.append(one_line)
        self.fields["email"].initial = self.instance.user.email

    @property
    def email_changed(self) -> bool:
        return self.cleaned_data["email"].lower() != (self.instance.user.email or "").lower()

    def save(self, commit=True):
        # A changed address is unconfirmed (Profile.email_verified compares it with the
        # confirmed one); the view mails the link. A taken address is accepted like any
        # other, so the form tells nothing about it.
        profile = super().save(commit=commit)
        user = profile.user
        user.email = self.cleaned_data["email"]
        if commit:
            user.save(update_fields=["email"])
        return profile


class ResetForm(PasswordResetForm):
    """Addresses are not unique (a taken one is accepted silently): the reset link goes to the
    account that confirmed the address, else to its oldest account, never to every holder."""

    def get_users(self, email):
        holders = [u for u in super().get_users(email)]
        holders.sort(key=lambda u: u.pk)
        confirmed = [u for u in holders if u.profile.email_verified]
        return (confirmed or holders)[:1]

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        """The reset mail in the account's language, with the site's name and address (Django's
        would use the request's host for both), at most once a minute per address."""
        if not verification.first_mail_to(to_email):
            return
        user = context["user"]
        base = site_url()
        link = base + reverse("password_reset_confirm", kwargs={"uidb64": context["uid"], "token": context["token"]})
        context = {**context, "site_name": settings.SITE_NAME, "site_url": base, "link": link,
                   "username": user.get_username()}
        with translation.override(verification.mail_language(user)):
            subject = " ".join(render_to_string(subject_template_name, context).split())
            body = render_to_string(email_template_name, context)
            html = render_to_string(html_email_template_name, context) if html_email_template_name else None
        message = EmailMultiAlternatives(subject, body, from_email, [to_email])
        if html is not None:
            message.attach_alternative(html, "text/html")
        try:
            message.send()
        except Exception:  # a mail server down must not fail the form; the page says nothing either way
            logger.exception("password reset mail to user %s not sent", user.pk)
