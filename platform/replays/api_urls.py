from django.urls import path

from . import api

urlpatterns = [path("matches/<int:pk>/export/", api.MatchExport.as_view(), name="api-match-export")]
