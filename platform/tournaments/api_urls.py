from django.urls import path

from . import api_views as v

urlpatterns = [
    path("tournaments/", v.TournamentList.as_view(), name="api-tournaments"),
    path("tournaments/<int:pk>/", v.TournamentDetail.as_view(), name="api-tournament"),
    path("tournaments/<int:pk>/register/", v.Register.as_view(), name="api-tournament-register"),
    path("tournaments/<int:pk>/drop/", v.Verb.as_view(verb="drop"), name="api-tournament-drop"),
    path("tournaments/<int:pk>/rejoin/", v.Verb.as_view(verb="rejoin"), name="api-tournament-rejoin"),
    path("tournaments/<int:pk>/start/", v.Verb.as_view(verb="start"), name="api-tournament-start"),
    path("tournaments/<int:pk>/next-round/", v.Verb.as_view(verb="next-round"), name="api-tournament-next-round"),
    path("tournaments/<int:pk>/disqualify/", v.Disqualify.as_view(), name="api-tournament-disqualify"),
    path("tournaments/<int:pk>/results/", v.Results.as_view(), name="api-tournament-results"),
    path("tournaments/<int:pk>/sanctions/", v.Sanctions.as_view(), name="api-tournament-sanctions"),
    path("tournaments/<int:pk>/officials/", v.Officials.as_view(), name="api-tournament-officials"),
    path("tournaments/<int:pk>/bots/", v.Bots.as_view(), name="api-tournament-bots"),
    path("tournaments/<int:pk>/rounds/<int:n>/", v.RoundDetail.as_view(), name="api-tournament-round"),
    path("tournaments/<int:pk>/standings/", v.Standings.as_view(), name="api-tournament-standings"),
]
