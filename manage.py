#!/usr/bin/env python
"""Django's command-line utility. ``platform/`` is a source folder (not a package: a package
named ``platform`` would shadow the standard library), so it is put on the path here."""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
