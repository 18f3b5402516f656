"""The tournament API (contract: shared spec tournaments.md). Thin: validate, call a service,
present. Refusals are ``{"error", "detail"}`` with the service error's status."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from api.schema import ARRAY_OF_OBJECTS

from . import presenters, queries, services
from .errors import Invalid, NotFound, TournamentError
from .loading import load
from .models import Round, Tournament
from .serializers import (BotSerializer, CreateSerializer, DisqualifySerializer, DropSerializer, OfficialSerializer,
                          RegisterSerializer, ResultSerializer, SanctionSerializer)

ROUND_SCHEMA = inline_serializer("TournamentRound", {
    "round": serializers.IntegerField(), "stage": serializers.ChoiceField(["swiss", "knockout"]),
    "pairings": serializers.ListField(child=inline_serializer("TournamentPairing", {
        "table": serializers.IntegerField(), "match": serializers.IntegerField(),
        "users": serializers.ListField(child=serializers.IntegerField()),
        "result": serializers.DictField(allow_null=True)})),
    "byes": serializers.ListField(child=serializers.IntegerField())})
STANDING_SCHEMA = inline_serializer("TournamentStanding", {
    "rank": serializers.IntegerField(), "user": serializers.IntegerField(), "points": serializers.FloatField(),
    "wins": serializers.IntegerField(), "tiebreakers": serializers.DictField(), "dropped": serializers.BooleanField()},
    many=True)
ERROR_SCHEMA = inline_serializer("TournamentError", {"error": serializers.CharField(),
                                                     "detail": serializers.CharField()})
REFUSALS = {400: ERROR_SCHEMA, 403: ERROR_SCHEMA, 404: ERROR_SCHEMA, 409: ERROR_SCHEMA}


class TournamentAPIView(APIView):
    def handle_exception(self, exc):
        if isinstance(exc, TournamentError):
            return Response({"error": exc.code, "detail": exc.message}, status=exc.status)
        return super().handle_exception(exc)

    def valid(self, serializer_class):
        s = serializer_class(data=self.request.data)
        s.is_valid(raise_exception=True)
        return s.validated_data

    def detail(self, pk: int, status: int = 200) -> Response:
        t = get_object_or_404(Tournament.objects.select_related("organizer"), pk=pk)
        return Response(presenters.tournament_api(t, self.request.user), status=status)


def _user(pk: int):
    user = get_user_model().objects.filter(pk=pk).first()
    if user is None:
        raise Invalid(_("There is no user %(id)s.") % {"id": pk})
    return user


class TournamentList(TournamentAPIView):
    @extend_schema(operation_id="tournaments_list", parameters=[OpenApiParameter("status", str),
                                                                OpenApiParameter("game", str)],
                   responses={200: ARRAY_OF_OBJECTS}, summary="Tournaments and leagues, newest first")
    def get(self, request):
        qs = queries.tournament_list(status=request.query_params.get("status", ""),
                                     game=request.query_params.get("game", ""))
        return Response([presenters.tournament_row(t) for t in qs[:200]])

    @extend_schema(request=CreateSerializer, responses={201: OpenApiTypes.OBJECT, **REFUSALS},
                   summary="Create a tournament or league; the creator is its organizer")
    def post(self, request):
        t = services.create_tournament(request.user, **self.valid(CreateSerializer))
        return self.detail(t.pk, status=201)


class TournamentDetail(TournamentAPIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: ERROR_SCHEMA}, summary="One tournament")
    def get(self, request, pk: int):
        return self.detail(pk)


class Verb(TournamentAPIView):
    """POST /api/tournaments/{id}/<verb>/ for the simple verbs."""
    permission_classes = [permissions.IsAuthenticated]
    verb = ""

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, **REFUSALS})
    def post(self, request, pk: int):
        if self.verb == "drop":
            data = self.valid(DropSerializer)
            if data["user"] is not None and data["user"] != request.user.id:
                services.drop(pk, _user(data["user"]), by=request.user)
            else:
                services.drop(pk, request.user)
        elif self.verb == "rejoin":
            services.rejoin(pk, request.user)
        elif self.verb == "start":
            services.start(pk, request.user)
        elif self.verb == "next-round":
            services.next_round(pk, request.user)
        return self.detail(pk)


class Register(TournamentAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=RegisterSerializer, responses={201: OpenApiTypes.OBJECT, **REFUSALS},
                   summary="Sign up (deck games: with the deck, locked for the whole tournament)")
    def post(self, request, pk: int):
        data = self.valid(RegisterSerializer)
        services.register(pk, request.user, choices=data["choices"], deck=data["deck"])
        return self.detail(pk, status=201)


class Disqualify(TournamentAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=DisqualifySerializer, responses={200: OpenApiTypes.OBJECT, **REFUSALS},
                   summary="Organizer or judge: disqualify a player (never re-joins), with a reason")
    def post(self, request, pk: int):
        data = self.valid(DisqualifySerializer)
        services.disqualify(pk, request.user, _user(data["user"]), data["reason"])
        return self.detail(pk)


class Results(TournamentAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ResultSerializer, responses={200: ROUND_SCHEMA, **REFUSALS},
                   summary="Organizer or judge: record a result as if the match had ended so; for a closed "
                           "round a correction (organizer or head judge, with a reason)")
    def post(self, request, pk: int):
        data = self.valid(ResultSerializer)
        table = services.set_result(pk, request.user, data["match"], data["placements"], data["modified"],
                                    reason=data["reason"], kind=data["kind"])
        return Response(presenters.round_api(Round.objects.prefetch_related("tables").get(pk=table.round_id)))


class Sanctions(TournamentAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=SanctionSerializer, responses={201: OpenApiTypes.OBJECT, **REFUSALS},
                   summary="Organizer or judge: record a sanction (warning, descend_rank, game_loss, ...)")
    def post(self, request, pk: int):
        data = self.valid(SanctionSerializer)
        s = services.sanction(pk, request.user, _user(data["user"]), data["kind"], data["reason"], data["match"],
                              points=data["points"])
        return Response({"id": s.pk, "user": s.user_id, "kind": s.kind, "reason": s.reason, "applied": s.applied,
                         "match": s.table.match_id if s.table_id else None}, status=201)


class Officials(TournamentAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=OfficialSerializer, responses={200: OpenApiTypes.OBJECT, **REFUSALS},
                   summary="Organizer: appoint a head judge or judge")
    def post(self, request, pk: int):
        data = self.valid(OfficialSerializer)
        services.add_official(pk, request.user, _user(data["user"]), data["role"])
        return self.detail(pk)


class Bots(TournamentAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=BotSerializer, responses={201: OpenApiTypes.OBJECT, **REFUSALS},
                   summary="Organizer: add a bot entrant")
    def post(self, request, pk: int):
        services.add_bot(pk, request.user, self.valid(BotSerializer)["bot"] or None)
        return self.detail(pk, status=201)


class RoundDetail(TournamentAPIView):
    @extend_schema(responses={200: ROUND_SCHEMA, 404: ERROR_SCHEMA}, summary="Pairings and results of round n")
    def get(self, request, pk: int, n: int):
        rnd = Round.objects.filter(tournament_id=pk, number=n).prefetch_related("tables").first()
        if rnd is None:
            raise NotFound(_("There is no such round."))
        return Response(presenters.round_api(rnd))


class Standings(TournamentAPIView):
    @extend_schema(responses={200: STANDING_SCHEMA, 404: ERROR_SCHEMA},
                   summary="Standings: points, wins, every tie-breaker, dropped")
    def get(self, request, pk: int):
        t = get_object_or_404(Tournament, pk=pk)
        return Response(presenters.standings_api(load(t)))
