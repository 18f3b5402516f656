from django.utils import translation
from rest_framework import serializers

from web.oneline import one_line
from games import registry
from lobby.models import Invitation


class UserRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class InvitationCreateSerializer(serializers.Serializer):
    game = serializers.CharField()
    players = serializers.IntegerField()
    options = serializers.DictField(required=False, default=dict)
    move_days = serializers.IntegerField(required=False, default=3, min_value=1, max_value=30)
    private = serializers.BooleanField(required=False, default=False)
    invitees = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    choices = serializers.DictField(required=False, default=dict)
    bots = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    comment = serializers.CharField(required=False, default="", allow_blank=True, max_length=200,
                                    validators=[one_line])
    # Hours a seat left in a 3-4 player match is offered to substitutes (0: a bot at once).
    substitute_hours = serializers.IntegerField(required=False, default=24, min_value=0, max_value=24 * 7)

    def get_fields(self):
        # Settings feature apps add to invitations (frontend.forms.invitation_hooks), e.g. clocks.
        from frontend.forms import invitation_hooks

        fields = super().get_fields()
        for hooks in invitation_hooks():
            fields.update(hooks.api_fields())
        return fields


class JoinSerializer(serializers.Serializer):
    choices = serializers.DictField(required=False, default=dict)


class InvitationSerializer(serializers.ModelSerializer):
    host = UserRefSerializer()
    seats = serializers.SerializerMethodField()
    match = serializers.IntegerField(source="match_id", allow_null=True)
    invitees = serializers.SerializerMethodField()
    game_name = serializers.SerializerMethodField()

    class Meta:
        model = Invitation
        fields = ["id", "game", "game_name", "host", "players", "seats_taken", "options", "move_days", "private",
                  "invitees", "status", "match", "comment", "created_at", "seats"]

    def get_game_name(self, obj) -> str:
        return registry.display_name(obj.game, translation.get_language())

    def get_seats(self, obj) -> list[dict]:
        return [{"user": {"id": e.user_id, "username": e.user.username} if e.user_id else None,
                 "bot": e.bot or None} for e in obj.entries.all()]

    def get_invitees(self, obj) -> list[str]:
        if not obj.private:
            return []
        return [u.username for u in obj.invitees.all()]


class ActionSerializer(serializers.Serializer):
    action = serializers.JSONField()
    version = serializers.JSONField()


class VersionSerializer(serializers.Serializer):
    version = serializers.JSONField()
