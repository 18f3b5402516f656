from django.urls import path

from . import api

urlpatterns = [
    path("orden/decks/", api.DeckList.as_view(), name="api-orden-decks"),
    path("orden/decks/<int:pk>/", api.DeckDetail.as_view(), name="api-orden-deck"),
]
