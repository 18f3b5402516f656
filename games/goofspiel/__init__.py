"""Goofspiel (GOPS): simultaneous sealed bids for prize cards. Rules: docs/games/goofspiel.md."""
from .plugin import PLUGIN

__all__ = ["PLUGIN"]
