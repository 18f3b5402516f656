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
from .kinds import EMAIL, KINDS, PUSH, text
from .models import Notification, Preference, PushSubscription, TurnMail, TurnPush
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


class SettingsSerializer(serializers.Serializer):
    turn_mail = serializers.ChoiceField(choices=TurnMail.choices, required=False,
                                        help_text="When a turn (chat, start, end) e-mail goes out if the player is away: "
                                                  "now, 15m, 1h or digest (only in the daily digest).")
    turn_push = serializers.ChoiceField(choices=TurnPush.choices, required=False,
                                        help_text="The same for pushes: now, 2m, 15m or 1h.")
    digest = serializers.BooleanField(required=False)
    digest_hour = serializers.IntegerField(min_value=0, max_value=23, required=False)
    quiet_start = serializers.TimeField(allow_null=True, required=False, format="%H:%M")
    quiet_end = serializers.TimeField(allow_null=True, required=False, format="%H:%M")
    channels = serializers.DictField(child=serializers.ListField(child=serializers.ChoiceField(choices=[EMAIL, PUSH])),
                                     required=False, help_text="kind -> channels; kinds left out keep theirs")

    def validate_channels(self, value):
        unknown = sorted(set(value) - set(KINDS))
        if unknown:
            raise serializers.ValidationError(f"unknown kinds: {', '.join(unknown)}")
        return value

    def validate(self, data):
        if ("quiet_start" in data) != ("quiet_end" in data) or \
                (data.get("quiet_start") is None) != (data.get("quiet_end") is None):
            raise serializers.ValidationError("quiet_start and quiet_end go together (both times, or both null)")
        return data


def _settings(pref: Preference) -> dict:
    return {"turn_mail": pref.turn_mail, "turn_push": pref.turn_push, "digest": pref.digest,
            "digest_hour": pref.digest_hour,
            "quiet_start": pref.quiet_start.strftime("%H:%M") if pref.quiet_start else None,
            "quiet_end": pref.quiet_end.strftime("%H:%M") if pref.quiet_end else None,
            "channels": {kind: services.channels_for(pref, kind) for kind in KINDS}}


class NotificationSettings(APIView):
    """The requesting user's notification settings (platform.md, "Presence and delivery")."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="My notification settings")
    def get(self, request):
        pref = Preference.objects.filter(user=request.user).first() or Preference(user=request.user)
        return Response(_settings(pref))

    @extend_schema(request=SettingsSerializer, responses={200: OpenApiTypes.OBJECT},
                   summary="Change some of my notification settings (the fields given)")
    def patch(self, request):
        s = SettingsSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        d = s.validated_data
        pref = services.preferences(request.user)
        channels = dict(pref.channels)
        for kind, wanted in d.pop("channels", {}).items():
            channels[kind] = [c for c in (EMAIL, PUSH) if c in wanted]
        pref.channels = channels
        for name, value in d.items():
            setattr(pref, name, value)
        pref.save()
        return Response(_settings(pref))
