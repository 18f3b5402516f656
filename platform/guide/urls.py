from django.urls import path

from . import views

urlpatterns = [
    path("learn/", views.learn, name="learn"),
    path("learn/<slug:game>/", views.start, name="learn-start"),
]
