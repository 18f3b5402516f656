"""The JSON API (contract: shared spec platform.md). Thin views over the services."""
from __future__ import annotations

from games.textnum import small_int

from django.db import transaction
from django.http import Http404
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from api.schema import ARRAY_OF_OBJECTS
from frontend.forms import invitation_hooks
from games import registry
from lobby import queries as lobby_queries
from lobby import services as lobby
from lobby.models import Invitation
from matches import chat, notes, presenters, queries as match_queries, seatprefs, services as match_services
from matches import orders as match_orders
from matches import errors as match_errors
from matches.models import LogEntry, Match

from .serializers import ActionSerializer, InvitationCreateSerializer, InvitationSerializer, JoinSerializer, \
    VersionSerializer
from .throttles import ActionThrottle


def _lang(request) -> str:
    return (translation.get_language() or "en")[:2]


def _valid(serializer_class, request):
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


_TEXT = inline_serializer("Text", fields={"en": serializers.CharField(), "de": serializers.CharField()})
GAME_SCHEMA = inline_serializer("Game", many=True, fields={
    "slug": serializers.CharField(), "name": _TEXT, "min_players": serializers.IntegerField(),
    "max_players": serializers.IntegerField(), "engine_version": serializers.CharField(),
    "options": serializers.ListField(child=serializers.DictField()),
    "seat_choices": serializers.ListField(child=serializers.DictField()), "summary": _TEXT,
    "orders": serializers.DictField(child=inline_serializer("OrderKind", fields={
        "schema": serializers.DictField(), "text": _TEXT}))})
ORDERS_SCHEMA = inline_serializer("Orders", fields={"orders": serializers.ListField(child=serializers.DictField())})


class GameList(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: GAME_SCHEMA}, summary="Every game: slug, names, player limits, options, "
                   "order kinds (orders: kind → {schema, text: {en, de}}, the generic premove included)")
    def get(self, request):
        return Response([{**p.meta.schema(), "orders": match_orders.kinds(p)} for p in registry.plugins().values()])


class InvitationList(APIView):
    @extend_schema(parameters=[OpenApiParameter("game", str), OpenApiParameter("status", str),
                               OpenApiParameter("players", int), OpenApiParameter("host", str),
                               OpenApiParameter("invited", int, description="1: open invitations naming me that I "
                                                "have neither joined nor declined")],
                   responses={200: InvitationSerializer(many=True)}, summary="Open invitations")
    def get(self, request):
        if request.query_params.get("invited") == "1":
            if not request.user.is_authenticated:
                return Response({"error": "not_authenticated", "detail": "Log in to see invitations to you."},
                                status=401)
            return Response(lobby_queries.invitation_rows(lobby_queries.invited_to(request.user)))
        status = request.query_params.get("status", "open")
        if status != "open":
            qs = lobby_queries.invitations_with_status(status, request.query_params.get("game", ""))
        else:
            options = {k[7:]: _param_value(v) for k, v in request.query_params.items() if k.startswith("option.")}
            qs = lobby_queries.open_invitations(
                request.user, game=request.query_params.get("game", ""),
                players=small_int(request.query_params.get("players")),
                host=request.query_params.get("host", ""), options=options)
        return Response(lobby_queries.invitation_rows(qs))

    @extend_schema(request=InvitationCreateSerializer, responses={201: InvitationSerializer},
                   summary="Create an invitation (the host takes the first seat)")
    def post(self, request):
        data = _valid(InvitationCreateSerializer, request)
        extra = {k: data.pop(k) for k in list(data) if k not in InvitationCreateSerializer._declared_fields}
        with transaction.atomic():  # the apps' settings (invitation_hooks) belong to the invitation
            invitation = lobby.create_invitation(request.user, **data)
            for hooks in invitation_hooks():
                hooks.save(invitation, extra)
        return Response(InvitationSerializer(_invitation(invitation.pk)).data, status=201)


def _param_value(value: str):
    return {"true": True, "false": False}.get(value.lower(), value)


def _found(queryset, pk: int):
    """The row, or the one 404 every missing or private thing answers with (Http404 without a
    text: get_object_or_404's "No Match matches the given query." told a missing match from a
    private one, whose refusal said "Not found.")."""
    row = queryset.filter(pk=pk).first()
    if row is None:
        raise Http404
    return row


def _invitation(pk: int) -> Invitation:
    return _found(Invitation.objects.select_related("host").prefetch_related("entries__user", "invitees"), pk)


class InvitationDetail(APIView):
    @extend_schema(responses={200: InvitationSerializer}, summary="One invitation; shows its match once started")
    def get(self, request, pk: int):
        invitation = _invitation(pk)
        if not lobby.may_see(invitation, request.user):
            raise Http404
        return Response(InvitationSerializer(invitation).data)


class InvitationVerb(APIView):
    permission_classes = [permissions.IsAuthenticated]
    verb = ""

    @extend_schema(request=JoinSerializer, responses={200: InvitationSerializer})
    def post(self, request, pk: int):
        if self.verb == "join":
            data = _valid(JoinSerializer, request)
            lobby.join(pk, request.user, data["choices"])
        elif self.verb == "leave":
            lobby.leave(pk, request.user)
        elif self.verb == "decline":
            lobby.decline(pk, request.user)
        else:
            lobby.cancel(pk, request.user)
        return Response(InvitationSerializer(_invitation(pk)).data)


MATCH_SCHEMA = inline_serializer("Match", {
    "id": serializers.IntegerField(), "game": serializers.CharField(), "game_name": serializers.CharField(),
    # "aborted": a tournament official stopped the match (tournaments/matchstop.py); the
    # contract's "active"/"finished" extended and documented here.
    "status": serializers.ChoiceField(choices=Match.Status.choices,
                                      help_text="active, finished, or aborted (stopped by a tournament official)"),
    "version": serializers.IntegerField(), "seats": serializers.ListField(child=serializers.DictField()),
    "to_move": serializers.ListField(child=serializers.IntegerField()), "view": serializers.DictField(),
    "outcome": serializers.DictField(allow_null=True)})


def _match_for(request, pk: int):
    match = _found(Match.objects, pk)
    seats = list(match.seats.select_related("user"))
    seat = presenters.seat_for(seats, request.user)
    if not presenters.can_watch(match, seat):
        raise Http404
    return match, seats, seat


def _match_response(request, pk: int) -> Response:
    """The match as the requester sees it now (after a change they made)."""
    match, seats, seat = _match_for(request, pk)
    return Response(presenters.api_payload(registry.get(match.game), match, seats, seat))


class MatchList(APIView):
    @extend_schema(operation_id="matches_list",
                   parameters=[OpenApiParameter("mine", int), OpenApiParameter("to_move", int),
                               OpenApiParameter("status", str),
                               OpenApiParameter("order", str, enum=["deadline"],
                                                description="deadline: my matches whose clock runs out first, first")],
                   responses={200: ARRAY_OF_OBJECTS},
                   summary="Matches (mine=1: the requester's, each with its deadline)")
    def get(self, request):
        status = request.query_params.get("status") or None
        order = request.query_params.get("order") or None
        if order not in (None, "deadline"):
            return Response({"error": "bad_order", "detail": "order can only be 'deadline'."}, status=400)
        if request.query_params.get("mine") == "1" or request.query_params.get("to_move") == "1":
            if not request.user.is_authenticated:
                return Response({"error": "not_authenticated", "detail": "Log in to list your matches."},
                                status=401)
            qs = match_queries.my_matches(request.user, to_move_only=request.query_params.get("to_move") == "1",
                                          status=status, order=order)
            return Response(match_queries.match_rows(qs, deadlines=True))
        qs = match_queries.public_matches(request.user, status)
        return Response(match_queries.match_rows(qs))


class MatchDetail(APIView):
    @extend_schema(responses={200: MATCH_SCHEMA}, summary="A match as the requester may see it")
    def get(self, request, pk: int):
        return _match_response(request, pk)


class LegalActions(APIView):
    @extend_schema(responses={200: ARRAY_OF_OBJECTS}, summary="Every action the requesting seat may take now")
    def get(self, request, pk: int):
        match, seats, seat = _match_for(request, pk)
        if seat is None or seat.resigned or match.status != Match.Status.ACTIVE or seat.seat not in match.to_move:
            return Response([])
        return Response(registry.get(match.game).engine.legal_actions(match.state, seat.seat))


class Actions(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [ActionThrottle]

    @extend_schema(request=ActionSerializer, responses={200: MATCH_SCHEMA},
                   summary="Submit an action with the version it was chosen on (409 if stale)")
    def post(self, request, pk: int):
        data = request.data
        # A JSON object with both keys, not null, is all the serializer checks for (its fields
        # take any JSON): such a body skips building it; anything else gets its answer.
        if type(data) is not dict or data.get("action") is None or data.get("version") is None:
            data = _valid(ActionSerializer, request)
        done = match_services.act(pk, request.user, data["action"], data["version"])
        # The match as the move left it, not re-read: a later move may already have followed
        # (the answer then still shows this move's result, version included).
        return Response(presenters.api_payload(registry.get(done.match.game), done.match, done.seats, done.seat))


class Undo(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=VersionSerializer, responses={200: MATCH_SCHEMA}, summary="Take back my last move")
    def post(self, request, pk: int):
        data = _valid(VersionSerializer, request)
        match_services.undo(pk, request.user, data["version"])
        return _match_response(request, pk)


class Resign(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: MATCH_SCHEMA}, summary="Leave the match")
    def post(self, request, pk: int):
        match_services.resign(pk, request.user)
        return _match_response(request, pk)


class MatchLog(APIView):
    @extend_schema(responses={200: ARRAY_OF_OBJECTS}, summary="The match log as far as the requester may see it")
    def get(self, request, pk: int):
        match, seats, seat = _match_for(request, pk)
        entries = LogEntry.objects.filter(match=match).order_by("seq")
        names = presenters.seat_names(seats)
        return Response(presenters.api_log(match, entries, seat.seat if seat else None, registry.get(match.game),
                                           _lang(request), names))


class Rematch(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=JoinSerializer, responses={201: inline_serializer("Rematch", {
        "invitation": serializers.IntegerField()})},
        summary="Rematch: a private invitation to the same people, same game and options (201; a second "
                "click answers 200 with the same invitation)")
    def post(self, request, pk: int):
        from lobby.rematch import rematch

        data = _valid(JoinSerializer, request)
        invitation, created = rematch(pk, request.user, data["choices"])
        return Response({"invitation": invitation.pk}, status=201 if created else 200)


def _offer_row(offer) -> dict:
    return {"id": offer.pk, "match": offer.match_id, "game": offer.match.game,
            "game_name": registry.display_name(offer.match.game, translation.get_language()),
            "seat": offer.seat, "reason": offer.reason, "expires_at": offer.expires_at}


class SubstituteList(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: ARRAY_OF_OBJECTS}, summary="Seats of public running matches that need a "
                   "substitute")
    def get(self, request):
        from lobby.substitutes import open_offers

        return Response([_offer_row(o) for o in open_offers(request.user)[:100]])


class SubstituteTake(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT}, summary="Take an offered seat as a substitute")
    def post(self, request, pk: int):
        from lobby.substitutes import take

        offer = take(pk, request.user)
        return Response({**_offer_row(offer), "status": offer.status})
class MatchOrders(APIView):
    """The requesting seat's orders (decisions left in advance): private to that seat."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: ORDERS_SCHEMA}, summary="My orders in this match (403 without a seat)")
    def get(self, request, pk: int):
        return Response({"orders": match_orders.get(pk, request.user)["orders"]})

    @extend_schema(request=ORDERS_SCHEMA, responses={200: ORDERS_SCHEMA},
                   summary="Replace my orders (premoves: {kind: premove, action}; the game's kinds: GET /api/games/)")
    def put(self, request, pk: int):
        data = request.data if isinstance(request.data, dict) else {}
        if "orders" not in data:
            raise match_orders.BadOrder("Send {\"orders\": [...]}.")
        return Response({"orders": match_orders.put(pk, request.user, data["orders"])["orders"]})
NOTES_SCHEMA = inline_serializer("Notes", {"text": serializers.CharField(allow_blank=True)})
MATCH_NOTIFICATIONS_SCHEMA = inline_serializer("MatchNotifications", {
    "muted": serializers.BooleanField(),
    "level": serializers.ChoiceField(choices=["all", "turn", "none"], required=False)})


def _object(request) -> dict:
    if not isinstance(request.data, dict):
        raise match_errors.IllegalMove("Send a JSON object.")
    return request.data


class Notes(APIView):
    """The requesting seat's private notes (contract: "Playing over days")."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: NOTES_SCHEMA}, summary="My private notes in this match")
    def get(self, request, pk: int):
        return Response({"text": notes.text_for(pk, request.user)})

    @extend_schema(request=NOTES_SCHEMA, responses={200: NOTES_SCHEMA},
                   summary="Replace my private notes (at most 10,000 characters)")
    def put(self, request, pk: int):
        text = _object(request).get("text")
        if text is None:
            raise match_errors.IllegalMove("Send {\"text\": \"...\"}.")
        return Response({"text": notes.save(pk, request.user, text).text})


class MatchNotifications(APIView):
    """The requester's per-match notification setting: ``muted`` (nothing at all) or the
    finer ``level`` (all / turn: only my turn / none)."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: MATCH_NOTIFICATIONS_SCHEMA}, summary="My notification setting for this match")
    def get(self, request, pk: int):
        return Response(seatprefs.payload(seatprefs.level(pk, request.user)))

    @extend_schema(request=MATCH_NOTIFICATIONS_SCHEMA, responses={200: MATCH_NOTIFICATIONS_SCHEMA},
                   summary="Mute this match, or choose what it notifies")
    def put(self, request, pk: int):
        data = _object(request)
        if "level" in data:
            value = data["level"]
        elif isinstance(data.get("muted"), bool):
            value = "none" if data["muted"] else "all"
        else:
            raise match_errors.IllegalMove("Send {\"muted\": true|false} or {\"level\": \"all\"|\"turn\"|\"none\"}.")
        return Response(seatprefs.payload(seatprefs.set_level(pk, request.user, value)))


class ChatLineSerializer(serializers.Serializer):  # the schema's ChatLine (one class: one component)
    id = serializers.IntegerField(help_text="the line's id: ascending; ask for the lines after it with ?since=")
    user = serializers.CharField()
    text = serializers.CharField()
    at = serializers.DateTimeField()


CHAT_LINE_SCHEMA = ChatLineSerializer
CHAT_LINES_SCHEMA = ChatLineSerializer(many=True)
CHAT_POST_SCHEMA = inline_serializer("ChatPost", {"text": serializers.CharField(max_length=500)})


class MatchChat(APIView):
    """The match's chat: everyone who may watch the match reads it; its seated players write,
    under the page's rules (matches/chat.py: 1 to 500 characters, blocks, a moderator's mute;
    the chat-user rate limit of web/ratelimit.py counts these posts as the page's)."""

    @extend_schema(parameters=[OpenApiParameter("since", int, description="only the lines after this line id "
                                                "(0 or absent: from the start); at most 100, oldest first")],
                   responses={200: CHAT_LINES_SCHEMA},
                   summary="The chat lines after a line id")
    def get(self, request, pk: int):
        _match_for(request, pk)
        since = small_int(request.query_params.get("since", "0"))
        if since is None or since < 0:
            raise match_errors.IllegalMove("since must be a chat line id (a whole number, 0 or more).")
        return Response(chat.lines_after(pk, since, limit=100, with_time=True))

    @extend_schema(request=CHAT_POST_SCHEMA, responses={201: CHAT_LINE_SCHEMA},
                   summary="Write a line in the chat (seated players; 1 to 500 characters)")
    def post(self, request, pk: int):
        text = _object(request).get("text")
        if not isinstance(text, str):
            raise match_errors.IllegalMove("Send {\"text\": \"...\"}.")
        message = chat.post(pk, request.user, text)
        return Response(chat.line(message), status=201)


class ChatRead(APIView):
    """Marks the match's chat read for the requester (its unread mark, its chat notifications)."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={204: None}, summary="I have read this match's chat")
    def post(self, request, pk: int):
        if not chat.mark_read(pk, request.user):
            raise match_errors.NotSeated("Only the players of this match can read its chat as theirs.")
        return Response(status=204)
