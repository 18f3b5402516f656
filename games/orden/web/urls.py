from django.urls import path

from . import views

urlpatterns = [
    path("orden/decks/", views.deck_list, name="orden-decks"),
    path("orden/decks/new/", views.deck_new, name="orden-deck-new"),
    path("orden/decks/copy/", views.deck_copy, name="orden-deck-copy"),
    path("orden/decks/<int:pk>/", views.deck_edit, name="orden-deck-edit"),
    path("orden/decks/<int:pk>/delete/", views.deck_delete, name="orden-deck-delete"),
]
