"""Rules pages' pictures, drawn by the game's own board templates (frontend/rules_pictures.py).

    {% load rules_pictures %}
    {% rules_board "mygame" seed=3 moves=8 %}                      the whole board of a sample
    {% rules_sample "mygame" seed=3 moves=8 as s %}                its board context, to include
    {% include "mygame/card.html" with c=s.something %}            one partial of it (a card)
    {% rules_assets "mygame" %}            the board's style sheets (rules_board links them itself)
"""
from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from frontend import rules_pictures

register = template.Library()


def _lang() -> str:
    return "de" if (get_language() or "en").startswith("de") else "en"


@register.simple_tag
def rules_board(slug, **kwargs):
    return mark_safe(rules_pictures.board(slug, _lang(), **kwargs))


@register.simple_tag
def rules_sample(slug, **kwargs):
    return rules_pictures.sample(slug, _lang(), **kwargs)


@register.simple_tag
def rules_assets(slug):
    return rules_pictures.assets(slug)
