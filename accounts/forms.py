from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from config.oneline import one_line

from .models import Profile


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("E-mail"), required=True,
                             help_text=_("For turn notifications and password resets."))
    language = forms.ChoiceField(label=_("Language"), choices=Profile._meta.get_field("language").choices)

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

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
