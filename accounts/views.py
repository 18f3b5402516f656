from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods

from . import verification
from .forms import ProfileForm, SignUpForm
from .guests import is_guest

FIRST_STEPS = "first_steps"  # session key: the lobby points a new account to the guided match


@require_http_methods(["GET", "POST"])
def signup(request):
    """Sign-up; for a guest (accounts/guests.py) it turns the guest into the account in place, so
    the guided match played as a guest stays in the account's history."""
    guest = is_guest(request.user)
    if request.user.is_authenticated and not guest:
        return redirect("my-games")
    form = SignUpForm(request.POST or None, instance=request.user if guest else None,
                      initial={"language": translation.get_language(), "username": ""})
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        next_url = ""
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            if guest:
                user.profile.guest_since = None
                user.profile.save(update_fields=["guest_since"])
            verification.send_confirmation(user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        translation.activate(user.profile.language)  # greet in the language just chosen
        if guest:
            messages.success(request, _("Welcome! Your account has been created; your guided match is in it."))
        else:
            messages.success(request, _("Welcome! Your account has been created."))
            request.session[FIRST_STEPS] = True
        messages.info(request, SENT_TEXT())
        return redirect(next_url or ("my-games" if guest else "lobby"))
    return render(request, "accounts/signup.html", {"form": form, "guest": guest, "next": next_url})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user.profile)
    if request.method == "POST" and form.is_valid():
        changed = form.email_changed
        with transaction.atomic():
            form.save()
            if changed:
                verification.send_confirmation(request.user)
        translation.activate(form.cleaned_data["language"])
        messages.success(request, _("Your profile has been saved."))
        if changed:
            messages.info(request, SENT_TEXT())
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form, "email_verified": verification.is_verified(request.user)})


def SENT_TEXT():  # the same words whether or not the address was taken
    return _("We sent a confirmation link to your e-mail address. Until you open it, we send no "
             "notification mail there; the site works meanwhile.")


@require_http_methods(["GET", "POST"])
def verify_email(request, token):
    """GET shows a button (mail scanners open links; only a person's POST confirms)."""
    if request.method == "POST":
        try:
            verification.confirm(token)
        except verification.InvalidLink:
            return render(request, "accounts/verify_email.html", {"invalid": True}, status=400)
        messages.success(request, _("Thank you: your e-mail address is confirmed."))
        return redirect("profile" if request.user.is_authenticated else "login")
    return render(request, "accounts/verify_email.html", {"token": token})


@login_required
@require_http_methods(["POST"])
def resend_confirmation(request):
    if verification.is_verified(request.user):
        messages.info(request, _("Your e-mail address is confirmed already."))
    elif verification.send_confirmation(request.user, force=False):
        messages.info(request, SENT_TEXT())
    else:
        messages.warning(request, _("We sent a link a moment ago; please wait a minute before asking again."))
    return redirect("profile")


@require_http_methods(["POST"])
def set_language(request):
    """The header's DE/EN switch. Django's view sets the cookie, which a signed-in user's profile
    language would override on the next request (accounts.middleware): so it saves the profile."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in {code for code, _label in settings.LANGUAGES}:
        profile = request.user.profile
        if profile.language != language:
            profile.language = language
            profile.save(update_fields=["language"])
    return response
