"""Signals other apps (notifications) follow instead of being called by the lobby services.
Sent after the transaction committed (``transaction.on_commit``), with ids only.

- ``invitation_created(invitation_id)``: a new invitation (its invitees are set).
- ``invitation_declined(invitation_id, user_id)``: an invitee said no.
- ``invitation_cancelled(invitation_id)``: the host withdrew it.
"""
from django.dispatch import Signal

invitation_created = Signal()
invitation_declined = Signal()
invitation_cancelled = Signal()
