from django.urls import path

from . import api

urlpatterns = [
    path("rankings/", api.OverallRanking.as_view(), name="api-rankings"),
    path("rankings/<slug:game>/", api.GameRanking.as_view(), name="api-ranking"),
]
