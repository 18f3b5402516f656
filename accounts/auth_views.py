"""Django's log-in and password views with the site's own templates and name.

The templates live under ``accounts/auth/`` and are named here: under Django's default names
(``registration/...``) the admin app, listed first, would serve its own ("Django
administration", styles the site's CSP blocks). Django's views also put the request's host into
``site_name``, which the site's frame shows as its name: set back to the site's name."""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth import views as auth_views

from .forms import ResetForm


class SiteName:
    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["site_name"] = settings.SITE_NAME
        return context


class LoginView(SiteName, auth_views.LoginView):
    template_name = "accounts/auth/login.html"


class PasswordChangeView(SiteName, auth_views.PasswordChangeView):
    template_name = "accounts/auth/password_change_form.html"


class PasswordChangeDoneView(SiteName, auth_views.PasswordChangeDoneView):
    template_name = "accounts/auth/password_change_done.html"


class PasswordResetView(SiteName, auth_views.PasswordResetView):
    template_name = "accounts/auth/password_reset_form.html"
    form_class = ResetForm
    subject_template_name = "accounts/mail/password_reset_subject.txt"
    email_template_name = "accounts/mail/password_reset.txt"
    html_email_template_name = "accounts/mail/password_reset.html"


class PasswordResetDoneView(SiteName, auth_views.PasswordResetDoneView):
    template_name = "accounts/auth/password_reset_done.html"


class PasswordResetConfirmView(SiteName, auth_views.PasswordResetConfirmView):
    template_name = "accounts/auth/password_reset_confirm.html"


class PasswordResetCompleteView(SiteName, auth_views.PasswordResetCompleteView):
    template_name = "accounts/auth/password_reset_complete.html"
