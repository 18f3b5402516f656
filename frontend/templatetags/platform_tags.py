import json

from django import template
from django.core.serializers.json import DjangoJSONEncoder

register = template.Library()


@register.filter
def tojson(value) -> str:
    """JSON text of a value (autoescaping keeps it safe inside HTML attributes)."""
    return json.dumps(value, cls=DjangoJSONEncoder, separators=(",", ":"))


@register.filter
def game_name(slug: str) -> str:
    """A game's name in the active language (``{{ inv.game|game_name }}``), never its slug."""
    from django.utils.translation import get_language

    from games import registry

    return registry.display_name(slug, get_language())


@register.filter
def action_label(action) -> str:
    """A readable button label for a game without a board template: its type, then its fields
    ("play · card 3"), instead of the raw JSON."""
    if not isinstance(action, dict):
        return str(action)
    parts = [str(action.get("type", "?")).replace("_", " ")]
    parts += [f"{k.replace('_', ' ')} {v}" for k, v in action.items() if k != "type"]
    return " · ".join(parts)
