"""Checks locale/de/LC_MESSAGES/django.po and compiles it.

The .po file is the one source of the German translations: translators edit its ``msgstr``
lines. Run after `manage.py makemessages` (`make messages` does both): an entry without a
translation, or with only makemessages' fuzzy guess (usually another sentence), is listed and
the check fails, so a missing translation is visible.
"""
import sys
from pathlib import Path

import polib

PO = Path(__file__).resolve().parents[1] / "de" / "LC_MESSAGES" / "django.po"


def missing(po: polib.POFile) -> list[str]:
    return [
        entry.msgid for entry in po
        if not entry.obsolete
        and ("fuzzy" in entry.flags or not (entry.msgstr or any(entry.msgstr_plural.values())))
    ]


if __name__ == "__main__":
    po = polib.pofile(str(PO))
    po.save_as_mofile(str(PO.with_suffix(".mo")))
    gaps = missing(po)
    if gaps:
        print("untranslated:", *gaps, sep="\n  ")
        sys.exit(1)
