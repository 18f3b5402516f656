from django.urls import path

from . import api

urlpatterns = [path("users/<str:username>/", api.UserProfile.as_view(), name="api-user")]
