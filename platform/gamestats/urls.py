from django.urls import path

from . import views

urlpatterns = [
    path("stats/", views.stats_index, name="stats"),
    path("stats/<slug:game>/", views.game_stats, name="game-stats"),
]
