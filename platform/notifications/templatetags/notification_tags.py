from django import template

from ..services import unread_count

register = template.Library()


@register.simple_tag(takes_context=True)
def unread_notifications(context) -> int:
    """One COUNT on an index per page (the header bell)."""
    user = context.get("user")
    return unread_count(user.id) if user is not None and user.is_authenticated else 0
