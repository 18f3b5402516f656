"""Forms of the tournament pages (the services check the rules and explain refusals)."""
from django import forms
from django.utils.translation import gettext_lazy as _

from web.oneline import one_line
from frontend.forms import SeatChoicesMixin, choice_fields, option_fields
from games import registry

from .models import MAX_TABLE, Official, Sanction, Tournament

# <input type=datetime-local> takes only ISO values, whatever the display language.
ISO_LOCAL = "%Y-%m-%dT%H:%M"


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120, validators=[one_line], help_text=_("At most 120 characters."))
    game = forms.ChoiceField(label=_("Game"))
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices)
    structure = forms.ChoiceField(label=_("Structure"), choices=Tournament.Structure.choices,
                                  help_text=_("Swiss rounds and cut by the number of players, or your own."))
    rounds = forms.IntegerField(label=_("Swiss rounds (custom structure)"), min_value=1, max_value=30,
                                required=False)
    cut = forms.TypedChoiceField(label=_("Cut to the top"), required=False, coerce=int, empty_value=None,
                                 choices=[("", "–"), (2, "2"), (4, "4"), (8, "8"), (16, "16"), (32, "32")])
    scoring = forms.ChoiceField(label=_("Scoring"), choices=Tournament.Scoring.choices)
    tiebreakers = forms.ChoiceField(label=_("Tie-breakers"), choices=Tournament.Tiebreakers.choices)
    players_per_match = forms.TypedChoiceField(label=_("Players per match"), coerce=int, initial=2,
                                               choices=[(n, str(n)) for n in range(2, MAX_TABLE + 1)])
    round_days = forms.IntegerField(label=_("Days per round"), min_value=1, max_value=60, initial=7)
    level = forms.ChoiceField(label=_("Level"), choices=Tournament.Level.choices,
                              help_text=_("Formal and premium: the organizer and judges may not play."))
    signup_deadline = forms.DateTimeField(label=_("Sign-up deadline"), required=False,
                                          widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=ISO_LOCAL))
    season_end = forms.DateTimeField(label=_("Season end (leagues)"), required=False,
                                     widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=ISO_LOCAL))
    rated = forms.BooleanField(label=_("Matches count for ratings"), required=False, initial=True)

    def __init__(self, lang: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(p.meta.slug, p.meta.name_de if lang == "de" else p.meta.name_en)
                                       for p in registry.plugins().values()]


class RegisterForm(SeatChoicesMixin, forms.Form):
    def __init__(self, plugin, user_id: int, lang: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.update(choice_fields(plugin, user_id, lang))
        if "choice_deck" in self.fields:
            self.fields["choice_deck"].required = True
            self.fields["choice_deck"].help_text = _("Your deck is locked for the whole tournament.")


class OfficialForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=Official.Role.choices)


class SanctionForm(forms.Form):
    user = forms.TypedChoiceField(label=_("Player"), coerce=int)
    kind = forms.ChoiceField(label=_("Sanction"), choices=Sanction.Kind.choices)
    reason = forms.CharField(label=_("Reason"), max_length=500)
    points = forms.DecimalField(label=_("Points (deduction)"), required=False, min_value=0, max_digits=6,
                                decimal_places=2)

    def __init__(self, players, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["user"].choices = players


__all__ = ["TournamentForm", "RegisterForm", "OfficialForm", "SanctionForm", "option_fields"]
