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


def merge_twins(po: polib.POFile) -> list[str]:
    """Drops the second of two identical entries (what a union merge of two branches leaves);
    returns the msgids whose twins disagree, for a person to settle."""
    seen: dict = {}
    disagree = []
    for entry in list(po):
        key = (entry.msgctxt, entry.msgid)
        first = seen.setdefault(key, entry)
        if first is entry:
            continue
        if (first.msgstr, first.msgstr_plural) == (entry.msgstr, entry.msgstr_plural):
            po.remove(entry)
        else:
            disagree.append(entry.msgid)
    return disagree


def missing(po: polib.POFile) -> list[str]:
    return [
        entry.msgid for entry in po
        if not entry.obsolete
        and ("fuzzy" in entry.flags or not (entry.msgstr or any(entry.msgstr_plural.values())))
    ]


if __name__ == "__main__":
    po = polib.pofile(str(PO))
    twins = merge_twins(po)
    po.save()
    po.save_as_mofile(str(PO.with_suffix(".mo")))
    gaps = missing(po)
    if twins:
        print("translated twice, differently:", *twins, sep="\n  ")
    if gaps:
        print("untranslated:", *gaps, sep="\n  ")
    if twins or gaps:
        sys.exit(1)
