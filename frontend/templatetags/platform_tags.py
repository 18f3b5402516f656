import json

from django import template
from django.core.serializers.json import DjangoJSONEncoder

register = template.Library()


@register.filter
def tojson(value) -> str:
    """JSON text of a value (autoescaping keeps it safe inside HTML attributes)."""
    return json.dumps(value, cls=DjangoJSONEncoder, separators=(",", ":"))
