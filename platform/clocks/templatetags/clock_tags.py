from django import template

from ..presenters import hours, match_clocks

register = template.Library()


@register.simple_tag
def clocks_for(match, seats):
    return match_clocks(match, seats)


@register.filter
def as_hours(seconds):
    return hours(seconds)
