from django import forms
from django.utils.translation import gettext_lazy as _

from games import registry


class InviteFriendForm(forms.Form):
    """A private invitation for one friend in one step; the friend's seat waits for them."""

    game = forms.ChoiceField(label=_("Game"))
    players = forms.TypedChoiceField(label=_("Players"), coerce=int, initial=2,
                                     choices=[(n, str(n)) for n in range(2, 5)])
    move_days = forms.IntegerField(label=_("Days per move"), min_value=1, max_value=30, initial=3)

    def __init__(self, lang: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(slug, p.meta.name_de if lang == "de" else p.meta.name_en)
                                       for slug, p in registry.plugins().items()]


class UsernameForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)
