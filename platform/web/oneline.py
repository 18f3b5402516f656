"""One-line names (display names, tournament, deck and invitation texts): no control
characters (CR, LF, tab, NUL...) and no Unicode line or paragraph separators. Such a name
ends up in page titles, lists, mail subjects and logs, where a line break forges a second
line. A validator, so forms show it as a field error and DRF serializers as a 400 on the field.
(User names are covered by Django's own validator: letters, digits and @.+-_ only.)"""
from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

BREAKING = {"Cc", "Zl", "Zp"}  # control characters; U+2028 and U+2029


def one_line(value) -> None:
    if isinstance(value, str) and any(unicodedata.category(ch) in BREAKING for ch in value):
        raise ValidationError(_("Use one line, without line breaks or control characters."), code="one_line")
