"""Game plugins. Each sub-package is one game; see games/base.py for the interface.

Rule code (engines) in these packages is pure Python: no Django, Channels or Celery.
"""
