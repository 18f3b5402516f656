from django.contrib.auth import views as django_auth_views
from django.urls import path

from . import auth_views, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("email/confirm/<str:token>/", views.verify_email, name="verify-email"),
    path("email/resend/", views.resend_confirmation, name="resend-confirmation"),
    path("language/", views.set_language, name="set-language"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", django_auth_views.LogoutView.as_view(), name="logout"),
    path("password/change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("password/reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("password/reset/complete/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
]
