from django.urls import path

from . import views

app_name = "notifications"
urlpatterns = [
    path("notifications/", views.centre, name="centre"),
    path("notifications/<int:pk>/open/", views.open_notification, name="open"),
    path("notifications/settings/", views.settings_page, name="settings"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("sw.js", views.service_worker, name="service-worker"),
]
