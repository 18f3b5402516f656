from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from .kinds import EMAIL, KINDS, PUSH
from .models import NextGame, TurnMail, TurnPush


class PreferenceForm(forms.Form):
    """One checkbox per event and channel, the digest and the quiet hours."""

    digest = forms.BooleanField(label=_("Collect e-mails into one daily digest"), required=False)
    digest_hour = forms.IntegerField(label=_("Hour of the digest (your time)"), min_value=0, max_value=23)
    quiet_start = forms.TimeField(label=_("Quiet hours from"), required=False,
                                  widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    quiet_end = forms.TimeField(label=_("Quiet hours until"), required=False,
                                widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    turn_mail = forms.ChoiceField(label=_("E-mail for my turn, chat, a game's start and end"),
                                  choices=TurnMail.choices, initial=TurnMail.QUARTER, widget=forms.RadioSelect,
                                  required=False)
    turn_push = forms.ChoiceField(label=_("Push for my turn, chat, a game's start and end"),
                                  choices=TurnPush.choices, initial=TurnPush.TWO, widget=forms.RadioSelect,
                                  required=False)
    next_game = forms.ChoiceField(label=_("“Next game” takes me to"), choices=NextGame.choices,
                                  initial=NextGame.DEADLINE, widget=forms.RadioSelect, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        channel_names = {EMAIL: _("e-mail"), PUSH: _("push")}
        for kind, (label, _default) in KINDS.items():
            for channel in (EMAIL, PUSH):
                # The table shows the event once per row: each checkbox names it and its channel.
                name = format_lazy("{} ({})", label, channel_names[channel])
                self.fields[f"{channel}__{kind}"] = forms.BooleanField(
                    label=label, required=False, widget=forms.CheckboxInput(attrs={"aria-label": name}))

    def rows(self):
        return [{"label": label, "email": self[f"{EMAIL}__{kind}"], "push": self[f"{PUSH}__{kind}"]}
                for kind, (label, _default) in KINDS.items()]

    def clean(self):
        data = super().clean()
        if bool(data.get("quiet_start")) != bool(data.get("quiet_end")):
            raise forms.ValidationError(_("Quiet hours need a start and an end."))
        return data

    def channels(self) -> dict:
        return {kind: [c for c in (EMAIL, PUSH) if self.cleaned_data.get(f"{c}__{kind}")] for kind in KINDS}


class VacationForm(forms.Form):
    # <input type=date> takes only ISO values: the German "23.11.2026" left it empty and "required".
    start = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=366, initial=7)
