"""``{% icon "bell" %}``: an inline SVG that uses a symbol of ``frontend/icons.svg``.

Decorative by default (hidden from screen readers, the text beside it speaks); with a label
(``{% icon "lock" _("private") %}``) it is an image with that name."""
from django import template
from django.templatetags.static import static
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def icon(name: str, label: str = "") -> str:
    href = f"{static('frontend/icons.svg')}#{name}"
    if label:
        return format_html('<svg class="icon icon-{}" role="img" aria-label="{}"><title>{}</title>'
                           '<use href="{}"></use></svg>', name, label, label, href)
    return format_html('<svg class="icon icon-{}" aria-hidden="true" focusable="false"><use href="{}"></use></svg>',
                       name, href)
