"""GET /api/matches/{id}/export/: the match's log as the requester may see it."""
from django.http import Http404
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from games import registry
from matches import presenters
from matches.models import Match

from . import history


class MatchExport(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT},
                   summary="The match log for download, as far as the requester may see it")
    def get(self, request, pk: int):
        match = Match.objects.filter(pk=pk).first()
        if match is None:
            raise Http404
        seats = list(match.seats.select_related("user"))
        own = presenters.seat_for(seats, request.user)
        if not presenters.can_watch(match, own):
            raise Http404
        lang = (translation.get_language() or "en")[:2]
        return Response(history.export(match, seats, own, registry.get(match.game), lang))
