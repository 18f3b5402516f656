from django import template

from ..services import unread_groups

register = template.Library()


@register.simple_tag(takes_context=True)
def unread_notifications(context) -> int:
    """One query on an index per page (the header bell): the centre's entries with news."""
    user = context.get("user")
    return unread_groups(user.id) if user is not None and user.is_authenticated else 0
