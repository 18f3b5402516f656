"""Signals other apps subscribe to instead of being called by the match services.

Direction: matches is below the apps that react to its events (clocks, notifications, ratings,
tournaments, the lobby); it never imports them, they import this module and subscribe.

Unless said otherwise they are sent after the transaction committed (from
``transaction.on_commit``), so a receiver never sees a change that was rolled back. Receivers must be quick: hand slow work
(mail, push, ratings) to a Celery task that takes the ids.

- ``match_changed(match_id, version, status, to_move, previous_to_move)``: after every change
  (start, action, undo, resign); ``previous_to_move`` is None for the start. Senders that know
  more add it, and receivers must not rely on it (a task queued by an older version lacks it):
  ``actor`` (the seat whose action or undo made this version, None if no seat acted),
  ``game`` (the slug) and ``seats`` (``[seat, user_id, bot]`` per seat, ordered by seat).
- ``match_changes(changes)``: the same changes as a batch, before their ``match_changed``:
  a list of dicts with ``match_changed``'s arguments, in commit order (one change when the
  follow-up runs inline; the worker's batch otherwise). For receivers that do the work of many
  changes together (the clocks: a few statements per batch, not per change).
- ``match_finished(match_id)``: once, when a match ends (by the rules or by resignation).
- ``seat_left(match_id, seat, user_id, reason)``: a player left a match that goes on (resigned:
  reason "resigned"; the platform took the seat: e.g. "timeout"); a bot plays the seat now.
  The lobby offers it to substitutes.
- ``seat_handed_over(match_id, seat, left_user_id, user_id)``: sent INSIDE the transaction of
  ``services.hand_over_seat`` (a substitute took the seat), so a receiver's writes (the clocks:
  the seat's clock now belongs to the substitute) commit or roll back with it.
- ``chat_posted(match_id, message_id, user_id, text)``: after a chat line was written
  (notifications: ``chat`` / ``chat_mention``).
- ``chat_read(match_id, user)``: sent inside the request when a seated user read the match's
  chat (notifications: their ``chat`` and ``chat_mention`` notices of the match are read too).
- ``premoves_dropped(match_id, seat, user_id, game, count, version)``: after the commit, queued
  moves of the seat were dropped as illegal; only their owner hears it.
- ``orders_ended(match_id, seat, user_id, game, count, version)``: after the commit of a seat's
  hand-over, the orders its former player held ended with it.
- ``socket_state(user_id)``: asked when a socket (re)connects; each receiver returns a dict of
  what it adds to the ``state`` frame (notifications: ``unread``).

Two more serve this app's own layers, so that the writer never imports the modules that run it:
``services`` is below ``followups`` and ``tasks`` (they call it), and tells them here.

- ``change_committed(match_id, version, status, to_move, previous_to_move, hints)``: after the
  commit of every change; ``followups.announce_change`` (its only receiver) runs the follow-up
  inline or hands it to the worker.
- ``bots_due(match_id)``: a bot is to move (after the commit that made it so; or a long bot
  loop wants a fresh task); ``tasks.queue_bots`` (its only receiver) queues ``play_bots``.
Both are connected in ``MatchesConfig.ready``; a test checks each has exactly one receiver.
"""
from django.dispatch import Signal

match_changed = Signal()
match_changes = Signal()
match_finished = Signal()
seat_left = Signal()
seat_handed_over = Signal()
chat_posted = Signal()
chat_read = Signal()
premoves_dropped = Signal()
orders_ended = Signal()
socket_state = Signal()
change_committed = Signal()
bots_due = Signal()
