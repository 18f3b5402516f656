"""The deck builder's form: a Pfad version per rank that has several (IV, V, VI, VI+; VI+ and
IX+ may be left out) and a count per Nachziehstapel card, bounded by the base set's count."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from web.oneline import one_line
from games.orden.catalog import cardset
from games.orden.decks import CURRENT, with_current_versions
from games.orden.schema import OPTIONAL_RANKS, RANKS
from games.orden.text import WAPPEN_NAMES

LEAVE_OUT = ""


def rank_cards() -> dict[str, list]:
    """Rank label -> its rank cards (one, or one per path), labels in Pfad order."""
    out: dict[str, list] = {label: [] for label in sorted(RANKS, key=RANKS.get)}
    for c in sorted(cardset().cards.values(), key=lambda c: c.no):
        if c.kind == "rank" and c.in_version(CURRENT):  # old card versions only replay old matches
            out[c.rank].append(c)
    return out


def pool() -> list:
    """The Nachziehstapel cards, grouped for the page: by Wappen, then TYPE, then name."""
    order = list(WAPPEN_NAMES)
    return sorted((c for c in cardset().cards.values() if c.kind == "deck" and c.in_version(CURRENT)),
                  key=lambda c: (order.index(c.wappen) if c.wappen in order else 99, c.type or "", c.name.de))


class DeckForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60, validators=[one_line], help_text=_("At most 60 characters."))

    def __init__(self, *args, lang: str = "en", **kwargs):
        super().__init__(*args, **kwargs)
        de = lang == "de"
        self.choice_ranks = []
        for label, cards in rank_cards().items():
            if len(cards) > 1 or label in OPTIONAL_RANKS:
                choices = [(str(c.no), c.name.de if de else c.name.en) for c in cards]
                if label in OPTIONAL_RANKS:
                    choices.append((LEAVE_OUT, _("leave out")))
                self.fields[f"rank_{label}"] = forms.ChoiceField(
                    label=f"{_('Rank')} {label}", choices=choices, required=label not in OPTIONAL_RANKS)
                self.choice_ranks.append(label)
        for c in pool():
            self.fields[f"n_{c.no}"] = forms.IntegerField(
                label=c.name.de if de else c.name.en, min_value=0, max_value=c.count, initial=0, required=False,
                widget=forms.NumberInput(attrs={"min": 0, "max": c.count, "class": "deck-count"}))

    @staticmethod
    def initial_for(name: str, deck: dict) -> dict:
        cs = cardset().cards
        deck, _ = with_current_versions(deck)  # a deck saved with an old card version opens with the current one
        initial = {"name": name}
        for no in deck["pfad"]:
            initial[f"rank_{cs[no].rank}"] = str(no)
        for label in OPTIONAL_RANKS:
            initial.setdefault(f"rank_{label}", LEAVE_OUT)
        for no in deck["cards"]:
            initial[f"n_{no}"] = initial.get(f"n_{no}", 0) + 1
        return initial

    def deck(self) -> dict:
        """The deck the cleaned form describes (validated by the service, not here)."""
        data = self.cleaned_data
        pfad = []
        for label, cards in rank_cards().items():
            if label in self.choice_ranks:
                value = data.get(f"rank_{label}") or LEAVE_OUT
                if value != LEAVE_OUT:
                    pfad.append(int(value))
            else:
                pfad.append(cards[0].no)
        cards = [c.no for c in pool() for _ in range(data.get(f"n_{c.no}") or 0)]
        return {"pfad": pfad, "cards": cards}
