"""/api/orden/decks/: the requesting player's saved decks (others' decks are 404)."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from web.oneline import one_line

from . import services
from .models import SavedDeck

ERROR = inline_serializer("OrdenDeckError", {"error": serializers.CharField(), "detail": serializers.CharField()})


class DeckSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=60, validators=[one_line])
    pfad = serializers.ListField(child=serializers.IntegerField(), help_text="Rank cards, top to bottom")
    cards = serializers.ListField(child=serializers.IntegerField(), help_text="Nachziehstapel card numbers")
    updated_at = serializers.DateTimeField(read_only=True)


def _data(deck: SavedDeck) -> dict:
    return {"id": deck.pk, "name": deck.name, "pfad": deck.pfad, "cards": deck.cards, "updated_at": deck.updated_at}


def _refused(e: services.DeckRefused) -> Response:
    return Response({"error": "invalid_deck", "detail": e.message}, status=status.HTTP_400_BAD_REQUEST)


def _valid(request) -> dict:
    ser = DeckSerializer(data=request.data)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


class DeckList(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="orden_decks_list", responses={200: DeckSerializer(many=True)},
                   summary="My saved Der Orden decks")
    def get(self, request):
        return Response([_data(d) for d in SavedDeck.objects.filter(owner=request.user)])

    @extend_schema(operation_id="orden_decks_create", request=DeckSerializer,
                   responses={201: DeckSerializer, 400: ERROR}, summary="Save a new deck (validated)")
    def post(self, request):
        data = _valid(request)
        try:
            deck = services.save(request.user, name=data["name"], deck={"pfad": data["pfad"], "cards": data["cards"]})
        except services.DeckRefused as e:
            return _refused(e)
        return Response(_data(deck), status=status.HTTP_201_CREATED)


class DeckDetail(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def _deck(self, request, pk) -> SavedDeck:
        deck = services.owned(request.user, pk)
        if deck is None:
            raise NotFound("No such deck of yours.")
        return deck

    @extend_schema(operation_id="orden_decks_retrieve", responses={200: DeckSerializer, 404: ERROR})
    def get(self, request, pk: int):
        return Response(_data(self._deck(request, pk)))

    @extend_schema(operation_id="orden_decks_update", request=DeckSerializer,
                   responses={200: DeckSerializer, 400: ERROR, 404: ERROR}, summary="Replace a deck (validated)")
    def put(self, request, pk: int):
        deck = self._deck(request, pk)
        data = _valid(request)
        try:
            deck = services.save(request.user, name=data["name"], deck={"pfad": data["pfad"], "cards": data["cards"]},
                                 existing=deck)
        except services.DeckRefused as e:
            return _refused(e)
        return Response(_data(deck))

    @extend_schema(operation_id="orden_decks_destroy", responses={204: None, 404: ERROR})
    def delete(self, request, pk: int):
        self._deck(request, pk).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
