from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods

from .forms import ProfileForm, SignUpForm


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("my-games")
    form = SignUpForm(request.POST or None, initial={"language": translation.get_language()})
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        translation.activate(user.profile.language)  # greet in the language just chosen
        messages.success(request, _("Welcome! Your account has been created."))
        return redirect("lobby")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user.profile)
    if request.method == "POST" and form.is_valid():
        form.save()
        translation.activate(form.cleaned_data["language"])
        messages.success(request, _("Your profile has been saved."))
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form})


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
