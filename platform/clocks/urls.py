from django.urls import path

from . import views

app_name = "clocks"
urlpatterns = [path("players/<str:username>/record/", views.player_record, name="record")]
