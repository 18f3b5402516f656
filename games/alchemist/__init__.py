"""Alchemist (Carlo A. Rossi, AMIGO 2007) as a game plugin; rules in engine.py / rules.py."""
from .engine import AlchemistEngine
from .plugin import AlchemistPlugin

PLUGIN = AlchemistPlugin(AlchemistEngine())

__all__ = ["PLUGIN", "AlchemistEngine", "AlchemistPlugin"]
