"""The page "Your data": a copy as JSON (the API's export) and the deletion form."""
from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_http_methods

from . import erase, passwords


class DeleteForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("Your password"), widget=forms.PasswordInput,
                               strip=False)
    confirm = forms.BooleanField(label=gettext_lazy("Yes, delete my account for good"))

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        outcome = passwords.check(self.user, self.cleaned_data["password"])
        if outcome == passwords.TOO_MANY:
            raise forms.ValidationError(_("Too many wrong passwords; try again in an hour."))
        if outcome != passwords.RIGHT:
            raise forms.ValidationError(_("The password is wrong."))
        return self.cleaned_data["password"]


@login_required
@require_http_methods(["GET", "POST"])
def account_data(request):
    form = DeleteForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        erase.erase(request.user)
        logout(request)
        messages.success(request, _("Your account has been deleted. Thank you for playing."))
        return redirect("home")
    return render(request, "privacy/account_data.html", {"form": form})
