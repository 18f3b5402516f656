from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
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

    def clean_email(self):
        email = self.cleaned_data["email"]
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this e-mail address exists already."))
        return email

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

    def clean_email(self):
        # One account per address, as at sign-up: a password reset mails every account that has it.
        email = self.cleaned_data["email"]
        others = get_user_model().objects.exclude(pk=self.instance.user_id)
        if others.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this e-mail address exists already."))
        return email

    def save(self, commit=True):
        profile = super().save(commit=commit)
        user = profile.user
        user.email = self.cleaned_data["email"]
        if commit:
            user.save(update_fields=["email"])
        return profile
