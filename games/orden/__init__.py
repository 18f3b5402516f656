"""Der Orden: a customizable card game about climbing an order's hierarchy (see
docs/games/orden.md). The card language and base set live in schema.py and cards/."""
from games.orden.plugin import PLUGIN

__all__ = ["PLUGIN"]
