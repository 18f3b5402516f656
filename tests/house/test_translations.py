"""The German .po file, the one source of the German texts, has no gaps and no twins."""
import importlib.util
from pathlib import Path

import polib
import pytest

pytestmark = pytest.mark.pure

_spec = importlib.util.spec_from_file_location(
    "check_de", Path(__file__).resolve().parents[2] / "locale" / "tools" / "check_de.py")
check_de = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_de)


def test_every_string_is_translated_once():
    po = polib.pofile(str(check_de.PO))
    assert check_de.merge_twins(po) == [], "twins that disagree"
    assert len({(e.msgctxt, e.msgid) for e in po}) == len(po), "twins (run locale/tools/check_de.py)"
    assert check_de.missing(po) == [], "untranslated (run make messages and fill the msgstr lines)"
