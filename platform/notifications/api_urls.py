from django.urls import path

from . import api

urlpatterns = [
    path("notifications/", api.NotificationList.as_view(), name="api-notifications"),
    path("notifications/settings/", api.NotificationSettings.as_view(), name="api-notification-settings"),
    path("notifications/read/", api.MarkRead.as_view(), name="api-notifications-read"),
    path("notifications/push-subscriptions/", api.PushSubscriptions.as_view(), name="api-push-subscriptions"),
]
