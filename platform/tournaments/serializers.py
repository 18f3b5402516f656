"""Request shapes of the tournament API (the service layer checks the values and explains)."""
from rest_framework import serializers

from web.oneline import one_line


class CreateSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=40)
    name = serializers.CharField(max_length=120, validators=[one_line])
    format = serializers.CharField(default="swiss")
    structure = serializers.CharField(default="basis")
    rounds = serializers.IntegerField(required=False, allow_null=True, default=None)
    cut = serializers.IntegerField(required=False, allow_null=True, default=None)
    scoring = serializers.CharField(required=False, allow_null=True, default=None)
    tiebreakers = serializers.CharField(default="eiserner_thron")
    players_per_match = serializers.IntegerField(default=2)
    round_days = serializers.IntegerField(default=7)
    level = serializers.CharField(default="casual")
    signup_deadline = serializers.DateTimeField(required=False, allow_null=True, default=None)
    season_end = serializers.DateTimeField(required=False, allow_null=True, default=None)
    rated = serializers.BooleanField(default=True)
    options = serializers.DictField(required=False, default=dict)


class RegisterSerializer(serializers.Serializer):
    deck = serializers.JSONField(required=False, allow_null=True, default=None,
                                 help_text="Deck games: the deck (the game's seat choice 'deck').")
    choices = serializers.DictField(required=False, default=dict, help_text="Other seat choices of the game.")


class DisqualifySerializer(serializers.Serializer):
    user = serializers.IntegerField()
    reason = serializers.CharField(max_length=500)


class ResultSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    placements = serializers.ListField(child=serializers.IntegerField(), min_length=2)
    modified = serializers.BooleanField(default=False)
    kind = serializers.CharField(required=False, allow_blank=True, allow_null=True, default=None, max_length=40,
                                 help_text="A result kind of the scoring scheme (Mittelerde: draw, council, "
                                           "win_1_5, ...); overrides 'modified'.")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500,
                                   help_text="Required when correcting a closed round; recorded.")


class SanctionSerializer(serializers.Serializer):
    user = serializers.IntegerField()
    kind = serializers.CharField()
    reason = serializers.CharField(max_length=500)
    match = serializers.IntegerField(required=False, allow_null=True, default=None)
    points = serializers.DecimalField(required=False, allow_null=True, default=None, max_digits=6, decimal_places=2,
                                      help_text="point_deduction: the tournament points taken off (Mittelerde 26b).")


class DropSerializer(serializers.Serializer):
    user = serializers.IntegerField(required=False, allow_null=True, default=None,
                                    help_text="An official drops this player; without it you drop yourself.")


class OfficialSerializer(serializers.Serializer):
    user = serializers.IntegerField()
    role = serializers.CharField(default="judge")


class BotSerializer(serializers.Serializer):
    bot = serializers.CharField(required=False, allow_blank=True, default="")
