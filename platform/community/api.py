"""GET /api/users/{username}/ → profile with per-game ratings, games played and won."""
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from . import profiles


class UserProfile(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="A player's public profile")
    def get(self, request, username: str):
        user = get_object_or_404(get_user_model(), username=username)
        results = profiles.results(user)
        ratings = profiles.ratings(user)
        return Response({
            "id": user.pk, "username": user.username, "joined": user.date_joined,
            "ratings": [{"game": r["game"], "rating": r["rating"], "mu": r["mu"], "sigma": r["sigma"],
                         "games": r["games"], "wins": r["wins"], "provisional": r["provisional"]} for r in ratings],
            "games": [{"game": g, **v} for g, v in sorted(results["games"].items())],
            "played": results["played"], "won": results["won"], "timeouts": results["timeouts"],
            "usual_move_seconds": profiles.usual_move_seconds(user),
        })
