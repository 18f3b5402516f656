"""Websocket endpoint for a match's live updates and for a user's turn badge.

The socket joins exactly one group for the match: its user's seat group, or the public group
for spectators of a public match. Frames are pre-rendered JSON from matches.live.

Catching up: a frame sent before the socket joined its groups (the page was rendered, then
a move or a notification came, then the socket opened) or while it was away is not sent
again. So a client that opens a socket may say ``{"type": "hello"}``; the answer is the state
those frames carry, read after the socket joined its groups:
``{"type": "state", "turns": 2, "unread": 5, "match": 7, "version": 12, "chat_unread": 1}``
(``turns`` and ``unread`` for a signed-in user, ``unread`` only with the notifications app,
``match``, ``version`` and ``chat_last`` (the newest chat line's id) on a match socket,
``chat_unread`` there for a signed-in user). A game page's hello also asks for its live part
rendered in its language (``"live": "de"``): matches/livepart.py.
"""
import asyncio
import json
import logging

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from ops import sockets

from . import live, livepart, presence, socketcaps, socketmoves

logger = logging.getLogger(__name__)

# Messages whose handlers use no database connection of the consumer's sync thread: frames
# are pre-rendered text, and socket moves run on their own threads and connections
# (socketmoves.py). Channels would tidy that thread's connections before each of them, a hop
# to the thread per frame — 17 % of the socket server's CPU under load (py-spy).
NO_DATABASE = frozenset({"match.frame", "websocket.receive", "access.ended"})


HELLO_RATE, HELLO_BURST = 0.2, 3  # per socket: a page asks once per (re)connect


def is_hello(text: str | None) -> bool:
    return hello_of(text) is not None


def hello_of(text: str | None) -> dict | None:
    """The hello message, or None if ``text`` is something else."""
    if not text or len(text) > 100 or "hello" not in text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) and data.get("type") == "hello" else None


def read_state(user_id: int | None, match_id: int | None) -> str:
    """The ``state`` frame: what the turn, notification and match frames would have said by now."""
    from .signals import socket_state

    frame = {"type": "state"}
    if user_id is not None:
        frame["turns"] = live.turn_counts([user_id]).get(user_id, 0)
        for _receiver, extra in socket_state.send(sender=None, user_id=user_id):  # notifications: unread
            frame.update(extra or {})
    if match_id is not None:
        from .models import Match

        frame["match"] = match_id
        frame["version"] = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
        if user_id is not None:  # the chat's unread mark (a seated player's; else 0)
            from django.contrib.auth import get_user_model

            from .chat import unread_count

            frame["chat_unread"] = unread_count(match_id, get_user_model()(pk=user_id))
        # The newest chat line: a page that missed a line while its socket was away fetches it.
        from .chat import last_id

        frame["chat_last"] = last_id(match_id)
    return json.dumps(frame)


class LiveConsumer(AsyncWebsocketConsumer):
    match_id = None  # set by a match socket
    counted = False  # in ops.sockets' count of this process's sockets
    ended = False  # closed by accounts/access.py: frames and messages until the disconnect are dropped

    slot = None  # this socket's place under socketcaps' per-user / per-address cap
    present_as = None  # the user id this socket makes present (matches/presence.py)

    async def websocket_connect(self, message):
        self.slot = socketcaps.admit(self.scope)
        if self.slot is None:  # too many sockets of this user (or anonymous ones of this address)
            await self.close(code=4429)
            return
        await super().websocket_connect(message)

    async def accept(self, subprotocol=None, headers=None):
        await super().accept(subprotocol, headers)
        if not self.counted:
            self.counted = True
            sockets.opened()
            user = self.scope.get("user")
            if user is not None and user.is_authenticated:
                self.present_as = user.id
                presence.opened(user.id, self.match_id)  # (written by presence's own thread)

    async def close(self, code=None, reason=None):
        if not self.counted:  # refused at the handshake: no disconnect may follow
            self._release()
        await super().close(code, reason)

    def _release(self):
        slot, self.slot = self.slot, None
        socketcaps.release(slot)

    async def websocket_disconnect(self, message):
        self._release()
        if self.counted:
            self.counted = False
            sockets.closed()
            if self.present_as is not None:
                presence.closed(self.present_as, self.match_id)
        await super().websocket_disconnect(message)

    async def dispatch(self, message):
        if message["type"] in NO_DATABASE:
            await getattr(self, get_handler_name(message))(message)
        else:
            await super().dispatch(message)

    async def match_frame(self, event):  # a pre-rendered frame (matches.live) for this socket
        if not self.ended:
            await self.send(text_data=event["text"])

    async def access_ended(self, event):
        """The user was deactivated (``session`` None) or logged out of the session this socket
        was opened with (accounts/access.py): no more frames, no more moves."""
        session = self.scope.get("session")
        if event.get("session") is None or event["session"] == getattr(session, "session_key", None):
            self.ended = True
            await self.close(code=event.get("code", 4401))

    async def answer_hello(self) -> None:
        """Send the ``state`` frame (module docstring); a socket that asks too often gets nothing."""
        bucket = getattr(self, "hello_bucket", None)
        if bucket is None:
            bucket = self.hello_bucket = socketmoves.Bucket(HELLO_RATE, HELLO_BURST)
        if not bucket.take():
            return
        user = self.scope.get("user")
        user_id = user.id if user is not None and user.is_authenticated else None
        await self.send(text_data=await database_sync_to_async(read_state)(user_id, self.match_id))


class MatchConsumer(LiveConsumer):
    seat = None  # the socket's seat number if its user plays in the match
    lang = "en"
    game = ""
    live_lang = None  # the page's language if it asked for its live part (matches/livepart.py)
    rendering = None  # the task rendering the live part
    render_text = None  # the newest match.update frame, sent as is if the part cannot be rendered
    render_again = False  # a newer frame came while rendering
    moved_at = 0.0  # when this socket last sent a move (loop time)

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

        match = Match.objects.filter(pk=self.match_id).only("id", "public", "game").first()
        if match is None:
            return None
        self.game = match.game
        if user is not None and user.is_authenticated:
            seat = Seat.objects.filter(match_id=self.match_id, user=user).values_list("seat", flat=True).first()
            if seat is not None:
                self.seat = seat
                profile = getattr(user, "profile", None)  # the language of refusals sent to this socket
                self.lang = getattr(profile, "language", None) or "en"
                return live.seat_group(self.match_id, seat)
        return live.public_group(self.match_id) if match.public else None

    async def disconnect(self, code):
        if self.rendering is not None:
            self.rendering.cancel()
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "user_group", None):
            await self.channel_layer.group_discard(self.user_group, self.channel_name)

    async def match_frame(self, event):
        if self.live_lang and not self.ended and livepart.is_update(event["text"]):
            self.render_text = event["text"]
            if self.rendering is None or self.rendering.done():
                self.rendering = asyncio.ensure_future(self._render())
            else:  # one more render when this one is done: the newest version, not each one
                self.render_again = True
            return
        await super().match_frame(event)

    async def _render(self):
        """The live part for this socket's user (livepart.py); the plain frame if that fails."""
        while True:
            self.render_again = False
            text = self.render_text
            cookie = (self.scope.get("cookies") or {}).get(settings.CSRF_COOKIE_NAME)
            moved = asyncio.get_running_loop().time() - self.moved_at < 5
            try:
                part = await livepart.part_for(self.match_id, self.scope.get("user"), self.live_lang, cookie,
                                               livepart.version_of(text), moved=moved)
            except Exception:  # the page fetches the part itself, as without this
                logger.warning("live part of match %s not rendered", self.match_id, exc_info=True)
                part = None
            if self.ended:
                return
            if part is None:
                await self.send(text_data=text)
            else:
                version, html = part
                await self.send(text_data=live.dumps(
                    {"type": "live", "match": self.match_id, "version": version, "html": html}))
            if not self.render_again:
                return

    async def receive(self, text_data=None, bytes_data=None):
        if self.ended:
            return
        hello = hello_of(text_data)
        if hello is not None:
            self.live_lang = livepart.wanted_language(hello)
            await self.answer_hello()
            return
        # A seated player's moves (matches/socketmoves.py); the same service as the HTTP API.
        self.moved_at = asyncio.get_running_loop().time()
        await socketmoves.handle(self, text_data)


class UserConsumer(LiveConsumer):
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

    async def receive(self, text_data=None, bytes_data=None):
        if not self.ended and is_hello(text_data):  # (nothing else is expected from the client here)
            await self.answer_hello()
