from django import template

from ..history import recap

register = template.Library()


@register.simple_tag(takes_context=True)
def since_my_last_move(context) -> list[dict]:
    """The game page's recap: the others' visible log lines since my last move (no queries:
    it reads the log the page already holds)."""
    return recap(context.get("log") or [], context.get("seat"))
