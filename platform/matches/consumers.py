"""Websocket endpoint for a match's live updates and for a user's turn badge.

The socket joins exactly one group for the match: its user's seat group, or the public group
for spectators of a public match. Frames are pre-rendered JSON from matches.live.
"""
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import live, socketmoves


class MatchConsumer(AsyncWebsocketConsumer):
    seat = None  # the socket's seat number if its user plays in the match
    lang = "en"

    async def connect(self):
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.bucket = socketmoves.Bucket()
        self.group = await self._group_for(self.scope.get("user"))
        if self.group is None:
            await self.close(code=4403)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.user_group = live.user_group(user.id)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
        await self.accept()

    @database_sync_to_async
    def _group_for(self, user):
        from .models import Match, Seat

        match = Match.objects.filter(pk=self.match_id).only("id", "public").first()
        if match is None:
            return None
        if user is not None and user.is_authenticated:
            seat = Seat.objects.filter(match_id=self.match_id, user=user).values_list("seat", flat=True).first()
            if seat is not None:
                self.seat = seat
                profile = getattr(user, "profile", None)  # the language of refusals sent to this socket
                self.lang = getattr(profile, "language", None) or "en"
                return live.seat_group(self.match_id, seat)
        return live.public_group(self.match_id) if match.public else None

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "user_group", None):
            await self.channel_layer.group_discard(self.user_group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        # A seated player's moves (matches/socketmoves.py); the same service as the HTTP API.
        await socketmoves.handle(self, text_data)

    async def match_frame(self, event):
        await self.send(text_data=event["text"])


class UserConsumer(AsyncWebsocketConsumer):
    """A signed-in user's own channel: "your turn" badges on every page."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = live.user_group(user.id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def match_frame(self, event):
        await self.send(text_data=event["text"])
