"""JSON API: GET /api/notifications/, POST /api/notifications/read/, push subscriptions."""
from django.db import IntegrityError, transaction
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from . import pushguard, services
from .centre import groups as centre_groups
from .kinds import text
from .models import Notification, PushSubscription
from .push import public_key

LIMIT = 100


class ReadSerializer(serializers.Serializer):
    ids = serializers.ListField(child=serializers.IntegerField(), required=False, allow_null=True, default=None,
                                help_text="Notifications to mark read; omitted: all of them.")


class KeysSerializer(serializers.Serializer):
    p256dh = serializers.CharField(max_length=200)
    auth = serializers.CharField(max_length=100)


class SubscriptionSerializer(serializers.Serializer):
    endpoint = serializers.URLField(max_length=1000)
    keys = KeysSerializer()


class EndpointSerializer(serializers.Serializer):
    endpoint = serializers.URLField(max_length=1000)


def _item(n: Notification, lang: str) -> dict:
    return {"id": n.pk, "kind": n.kind, "text": text(n.kind, n.data, lang), "url": n.data.get("url"),
            "match": n.match_id, "created_at": n.created_at, "unread": n.read_at is None}


class NotificationList(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT},
                   summary="My notifications, newest first: {unread: count, notifications: [...], groups: [...]} "
                           "(groups: one per match, as the centre shows them)")
    def get(self, request):
        lang = (translation.get_language() or "en")[:2]
        rows = Notification.objects.filter(user=request.user)[:LIMIT]
        groups = [{"id": g["id"], "kind": g["kind"], "match": g["match"], "text": g["text"],
                   "headline": g["headline"], "url": g["url"], "unread": g["unread"], "count": g["count"],
                   "ids": g["ids"], "created_at": g["created_at"]} for g in centre_groups(request.user, lang, LIMIT)]
        return Response({"unread": services.unread_count(request.user.id),
                         "notifications": [_item(n, lang) for n in rows], "groups": groups})


class MarkRead(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReadSerializer, responses={200: OpenApiTypes.OBJECT},
                   summary="Mark notifications read (all, or the given ids)")
    def post(self, request):
        s = ReadSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        marked = services.mark_read(request.user, s.validated_data.get("ids"))
        return Response({"marked": marked, "unread": services.unread_count(request.user.id)})


class PushSubscriptions(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="The VAPID public key (applicationServerKey)")
    def get(self, request):
        return Response({"public_key": public_key(),
                         "subscriptions": PushSubscription.objects.filter(user=request.user).count()})

    @extend_schema(request=SubscriptionSerializer, responses={201: OpenApiTypes.OBJECT},
                   summary="Subscribe this browser to web push (PushSubscription.toJSON())")
    def post(self, request):
        s = SubscriptionSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        d = s.validated_data
        try:  # only a browser push service at a public address; keys that can encrypt
            pushguard.check_endpoint(d["endpoint"])
            pushguard.check_keys(d["keys"]["p256dh"], d["keys"]["auth"])
        except pushguard.EndpointRefused as exc:
            return Response({"error": "invalid_subscription", "detail": str(exc)}, status=400)
        ua = request.META.get("HTTP_USER_AGENT", "")[:200]
        with transaction.atomic():
            try:
                sub, created = PushSubscription.objects.update_or_create(
                    endpoint=d["endpoint"], defaults={"user": request.user, "p256dh": d["keys"]["p256dh"],
                                                      "auth": d["keys"]["auth"], "user_agent": ua})
            except IntegrityError:  # the same browser subscribing twice at once
                sub, created = PushSubscription.objects.get(endpoint=d["endpoint"]), False
        return Response({"id": sub.pk, "endpoint": sub.endpoint}, status=201 if created else 200)

    @extend_schema(request=EndpointSerializer, responses={204: None}, summary="Unsubscribe this browser")
    def delete(self, request):
        s = EndpointSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        PushSubscription.objects.filter(user=request.user, endpoint=s.validated_data["endpoint"]).delete()
        return Response(status=204)
