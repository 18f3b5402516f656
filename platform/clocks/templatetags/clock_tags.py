from django import template

from ..presenters import hours

register = template.Library()


@register.filter
def as_hours(seconds):
    return hours(seconds)


@register.filter
def as_duration(seconds) -> str:
    """A usual pace as people say it ("under a minute", "12 min", "3 h 5 min", "4 days"; never
    "0.0 h"): the community profile's words, so both pages say the same."""
    from community.views import _duration

    return _duration(seconds)
