from django.urls import path

from . import views

urlpatterns = [
    path("learn/", views.learn, name="learn"),
    path("learn/not-now/", views.not_now, name="learn-not-now"),
    path("learn/<slug:game>/", views.start, name="learn-start"),
    path("learn/<slug:game>/try/", views.try_now, name="learn-try"),
    path("learn/matches/<int:pk>/suggested/", views.play_suggestion, name="learn-play-suggestion"),
]
