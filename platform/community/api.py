"""GET /api/users/{username}/ → profile with per-game ratings, games played and won."""
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from games import registry

from . import profiles


class UserProfile(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="A player's public profile")
    def get(self, request, username: str):
        user = get_object_or_404(get_user_model(), username=username)
        results = profiles.results(user)
        lang = get_language()
        ratings = profiles.ratings(user)
        return Response({
            "id": user.pk, "username": user.username, "joined": user.date_joined,
            "ratings": [{"game": r["game"], "game_name": registry.display_name(r["game"], lang),
                         "rating": r["rating"], "mu": r["mu"], "sigma": r["sigma"],
                         "games": r["games"], "wins": r["wins"], "provisional": r["provisional"]} for r in ratings],
            "games": [{"game": g, "game_name": registry.display_name(g, lang), **v}
                      for g, v in sorted(results["games"].items())],
            "played": results["played"], "won": results["won"], "timeouts": results["timeouts"],
            "usual_move_seconds": profiles.usual_move_seconds(user),
        })
