from django.urls import path

from . import views

urlpatterns = [
    path("matches/<int:pk>/replay/", views.replay, name="replay"),
    path("matches/<int:pk>/export.json", views.export, name="match-export"),
]
