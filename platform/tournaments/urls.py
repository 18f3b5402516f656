from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/new/", views.tournament_new, name="tournament-new"),
    path("tournaments/mine/", views.my_tournament_matches, name="tournaments-mine"),
    path("tournaments/<int:pk>/", views.tournament_page, name="tournament"),
    path("tournaments/<int:pk>/register/", views.register_page, name="tournament-register"),
    path("tournaments/<int:pk>/standings/", views.standings_page, name="tournament-standings"),
    path("tournaments/<int:pk>/bracket/", views.bracket_page, name="tournament-bracket"),
    path("tournaments/<int:pk>/rounds/<int:n>/", views.round_page, name="tournament-round"),
    path("tournaments/<int:pk>/rounds/<int:n>/result/", views.round_result, name="tournament-result"),
    path("tournaments/<int:pk>/do/<str:verb>/", views.tournament_action, name="tournament-action"),
]
