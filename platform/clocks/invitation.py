"""The invitation's time-control settings, added to the invitation form and API by the hook
in frontend/forms.py and api/serializers.py (AppConfig.invitation_hooks names this module)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from .models import TimeControl


def form_fields(lang: str) -> dict[str, forms.Field]:
    return {
        "clock_mode": forms.ChoiceField(label=_("Time control"), choices=TimeControl.Mode.choices,
                                        initial=TimeControl.Mode.DAYS, required=False),
        # data-clock-mode: frontend/static/frontend/forms.js shows these only with a time bank.
        "clock_bank_hours": forms.IntegerField(label=_("Time bank (hours)"), min_value=1, max_value=24 * 60,
                                               initial=72, required=False, help_text=_("Only with a time bank."),
                                               widget=forms.NumberInput(attrs={"data-clock-mode": "bank"})),
        "clock_increment_hours": forms.IntegerField(label=_("Added after each move (hours)"), min_value=0,
                                                    max_value=24 * 14, initial=24, required=False,
                                                    help_text=_("Only with a time bank."),
                                                    widget=forms.NumberInput(attrs={"data-clock-mode": "bank"})),
        "clock_weekends_off": forms.BooleanField(label=_("Weekends off (clocks stop on Saturday and Sunday)"),
                                                 required=False),
        "clock_policy": forms.ChoiceField(label=_("When time runs out"), choices=TimeControl.Policy.choices,
                                          initial=TimeControl.Policy.BOT, required=False),
        "clock_max_timeout_percent": forms.IntegerField(
            label=_("Only players who lost at most this percentage of their games on time"), min_value=0,
            max_value=100, required=False, help_text=_("Empty: anyone may join.")),
    }


def api_fields() -> dict[str, serializers.Field]:
    return {
        "clock_mode": serializers.ChoiceField(choices=TimeControl.Mode.choices, required=False,
                                              default=TimeControl.Mode.DAYS),
        "clock_bank_hours": serializers.IntegerField(required=False, min_value=1, max_value=24 * 60, default=72),
        "clock_increment_hours": serializers.IntegerField(required=False, min_value=0, max_value=24 * 14,
                                                          default=24),
        "clock_weekends_off": serializers.BooleanField(required=False, default=False),
        "clock_policy": serializers.ChoiceField(choices=TimeControl.Policy.choices, required=False,
                                                default=TimeControl.Policy.BOT),
        "clock_max_timeout_percent": serializers.IntegerField(required=False, min_value=0, max_value=100,
                                                              allow_null=True, default=None),
    }


def save(invitation, data: dict) -> None:
    """Store the settings of a just-created invitation (called in its transaction)."""
    percent = data.get("clock_max_timeout_percent")
    TimeControl.objects.update_or_create(invitation=invitation, defaults={
        "mode": data.get("clock_mode") or TimeControl.Mode.DAYS,
        "move_days": invitation.move_days,
        "bank_hours": data.get("clock_bank_hours") or 72,
        "increment_hours": data.get("clock_increment_hours") if data.get("clock_increment_hours") is not None
        else 24,
        "weekends_off": bool(data.get("clock_weekends_off")),
        "policy": data.get("clock_policy") or TimeControl.Policy.BOT,
        "max_timeout_rate": None if percent is None else percent / 100,
    })


def copy(match, invitation) -> None:
    """A rematch: ``invitation`` gets the time control ``match`` was played with."""
    template = (TimeControl.objects.filter(match=match).first()
                or TimeControl.objects.filter(invitation__match=match).first())
    if template is None:
        return
    TimeControl.objects.update_or_create(invitation=invitation, defaults={
        f: getattr(template, f) for f in ("mode", "move_days", "bank_hours", "increment_hours", "weekends_off",
                                          "policy", "max_timeout_rate")})
