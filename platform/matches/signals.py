"""Signals other apps subscribe to instead of being called by the match services.

Both are sent after the transaction committed (from ``transaction.on_commit``), so a
receiver never sees a change that was rolled back. Receivers must be quick: hand slow work
(mail, push, ratings) to a Celery task that takes the ids.

- ``match_changed(match_id, version, status, to_move, previous_to_move)``: after every change
  (start, action, undo, resign); ``previous_to_move`` is None for the start.
- ``match_finished(match_id)``: once, when a match ends (by the rules or by resignation).
"""
from django.dispatch import Signal

match_changed = Signal()
match_finished = Signal()
