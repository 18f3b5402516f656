"""A last websocket route that refuses every path the real routes did not take: Channels'
URLRouter raises ValueError ("No route found"), which servers answer with a 500 and a traceback."""
from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import re_path


class RefuseConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        await self.close(code=4404)  # before accept: the handshake is refused (HTTP 403)


def refuse_unrouted(patterns: list) -> list:
    return [*patterns, re_path(r"", RefuseConsumer.as_asgi())]
