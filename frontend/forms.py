"""Forms built from a game's declared options and seat choices."""
from importlib import import_module

from django import forms
from django.apps import apps
from django.utils.translation import gettext_lazy as _

from web.oneline import one_line
from games.base import GameMeta, Plugin


def _label(obj, lang: str) -> str:
    return obj.label_de if lang == "de" else obj.label_en


def option_fields(meta: GameMeta, lang: str) -> dict[str, forms.Field]:
    fields = {}
    for opt in meta.options:
        name = f"opt_{opt.key}"
        help_text = opt.help_de if lang == "de" else opt.help_en
        if opt.kind == "bool":
            fields[name] = forms.BooleanField(label=_label(opt, lang), required=False, initial=opt.default,
                                              help_text=help_text)
        elif opt.kind == "int":
            fields[name] = forms.IntegerField(label=_label(opt, lang), initial=opt.default, min_value=opt.min,
                                              max_value=opt.max, help_text=help_text)
        else:
            fields[name] = forms.ChoiceField(
                label=_label(opt, lang), initial=opt.default, help_text=help_text,
                choices=[(v, de if lang == "de" else en) for v, en, de in opt.choices])
    return fields


def choice_fields(plugin: Plugin, user_id: int, lang: str) -> dict[str, forms.Field]:
    fields = {}
    for choice in plugin.meta.seat_choices:
        values = plugin.seat_choice_values(choice.key, user_id)
        if values:
            # Not required: an omitted choice takes the game's default.
            # A label may be a (German, English) pair: one language per page.
            values = [(v, (label[0] if lang == "de" else label[1]) if isinstance(label, (tuple, list)) else label)
                      for v, label in values]
            fields[f"choice_{choice.key}"] = forms.ChoiceField(label=_label(choice, lang), choices=values,
                                                               initial=choice.default, required=False)
    return fields


class SeatChoicesMixin:
    def choices(self) -> dict:
        """The seat choices made; an empty one is left out so the game's default applies."""
        return {k[7:]: v for k, v in self.cleaned_data.items() if k.startswith("choice_") and v}


def invitation_hooks() -> list:
    """Feature apps that add invitation settings name a module on their AppConfig
    (``invitation_hooks = "clocks.invitation"``) with ``form_fields(lang)``, ``api_fields()``
    and ``save(invitation, data)`` (called in the invitation's transaction)."""
    return [import_module(c.invitation_hooks) for c in apps.get_app_configs() if getattr(c, "invitation_hooks", "")]


class InvitationForm(SeatChoicesMixin, forms.Form):
    players = forms.TypedChoiceField(label=_("Players"), coerce=int)
    move_days = forms.IntegerField(label=_("Days per move"), min_value=1, max_value=30, initial=3,
                                   help_text=_("Only with days per move."),
                                   widget=forms.NumberInput(attrs={"data-clock-mode": "days"}))
    private = forms.BooleanField(label=_("Private (only invited players may join)"), required=False)
    invitees = forms.CharField(label=_("Invited players"), required=False,
                               help_text=_("User names, separated by commas. They are told (by their notification "
                                           "settings); with “private” only they may join."))
    bots = forms.IntegerField(label=_("Bot opponents"), min_value=0, max_value=5, initial=0, required=False)
    comment = forms.CharField(label=_("Comment"), max_length=200, required=False, validators=[one_line],
                              help_text=_("At most 200 characters."))
    substitute_hours = forms.IntegerField(
        label=_("Hours to find a substitute"), min_value=0, max_value=24 * 7, initial=24, required=False,
        help_text=_("With 3 or 4 players: a seat left by resigning or running out of time is offered to "
                    "substitutes this long (a bot plays it meanwhile and keeps it afterwards). 0: a bot at once."))

    def __init__(self, plugin: Plugin, user_id: int, lang: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        meta = plugin.meta
        self.plugin = plugin
        self.fields["players"].choices = [(n, str(n)) for n in range(meta.min_players, meta.max_players + 1)]
        self.fields["players"].initial = meta.min_players
        self.fields.update(option_fields(meta, lang))
        self.fields.update(choice_fields(plugin, user_id, lang))
        for hooks in invitation_hooks():
            self.fields.update(hooks.form_fields(lang))
        if "clock_mode" in self.fields:  # "days per move" belongs with the time control it is part of
            names = [n for n in self.fields if n != "move_days"]
            names.insert(names.index("clock_mode") + 1, "move_days")
            self.order_fields(names)

    def options(self) -> dict:
        return {k[4:]: v for k, v in self.cleaned_data.items() if k.startswith("opt_")}


    def invitee_names(self) -> list[str]:
        return [n.strip() for n in self.cleaned_data.get("invitees", "").split(",") if n.strip()]


class JoinForm(SeatChoicesMixin, forms.Form):
    def __init__(self, plugin: Plugin, user_id: int, lang: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.update(choice_fields(plugin, user_id, lang))



class LobbyFilterForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), required=False)
    players = forms.TypedChoiceField(label=_("Players"), required=False, coerce=int, empty_value=None,
                                     choices=[("", "–")] + [(n, str(n)) for n in range(2, 5)])
    host = forms.CharField(label=_("Host"), required=False)

    def __init__(self, games, lang: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", "–")] + [
            (p.meta.slug, p.meta.name_de if lang == "de" else p.meta.name_en) for p in games]
        # Boolean options of every game as "any / yes / no" filters (e.g. no_schools).
        for plugin in games:
            for opt in plugin.meta.options:
                if opt.kind == "bool" and f"opt_{opt.key}" not in self.fields:
                    self.fields[f"opt_{opt.key}"] = forms.ChoiceField(
                        label=_label(opt, lang), required=False,
                        choices=[("", "–"), ("1", _("yes")), ("0", _("no"))])

    def option_filters(self) -> dict:
        return {k[4:]: v == "1" for k, v in self.cleaned_data.items() if k.startswith("opt_") and v}


CHAT_MAX = 500


class ChatForm(forms.Form):
    text = forms.CharField(max_length=CHAT_MAX, label=_("Message"))
