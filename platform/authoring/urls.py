from django.urls import path

from . import views

urlpatterns = [
    path("author/hotseat/", views.new, name="hotseat-new"),
    path("author/hotseat/<int:pk>/seat/<int:seat>/", views.table, name="hotseat"),
    path("author/hotseat/<int:pk>/seat/<int:seat>/act/", views.act, name="hotseat-act"),
]
