"""GET /api/rankings/{game}/ → [{rank, user: {id, username}, rating, games}] (spec platform.md)."""
from drf_spectacular.utils import extend_schema
from django.utils.translation import gettext as _
from rest_framework import permissions
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from api.schema import ARRAY_OF_OBJECTS

from games import registry

from . import queries


class GameRanking(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: ARRAY_OF_OBJECTS}, summary="A game's ranking, best first")
    def get(self, request, game: str):
        if game not in registry.plugins():
            raise NotFound(_("There is no game called '%(game)s'.") % {"game": game})
        return Response([{"rank": r["rank"], "user": {"id": r["user"].id, "username": r["user"].username},
                          "rating": r["rating"], "games": r["games"], "provisional": r["provisional"]}
                         for r in queries.ranking(game)])


class OverallRanking(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="rankings_overall", responses={200: ARRAY_OF_OBJECTS},
                   summary="The ranking over all games, best first")
    def get(self, request):
        return Response([{"rank": r["rank"], "user": {"id": r["user_id"], "username": r["username"]},
                          "rating": r["rating"], "games": r["games"], "provisional": r["provisional"]}
                         for r in queries.overall()])
