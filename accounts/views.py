from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
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
