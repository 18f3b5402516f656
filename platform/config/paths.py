"""Puts the project's source folders on sys.path (for entry points that are not manage.py)."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for folder in (ROOT, ROOT / "platform"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
