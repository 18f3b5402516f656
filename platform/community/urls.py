from django.urls import path

from . import views

urlpatterns = [
    path("users/<str:username>/", views.profile, name="user-profile"),
    path("users/<str:username>/invite/", views.invite_friend, name="invite-friend"),
    path("users/<str:username>/<str:verb>/", views.relation_action, name="user-relation"),
    path("friends/<str:verb>/", views.add_by_name, name="friends-add"),
    path("watch/", views.watch, name="watch"),
]
