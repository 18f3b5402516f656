"""The socket servers' websocket protocol (web/wsprotocol.py): uvicorn's own, loaded by
``--ws web.wsprotocol:Protocol``, negotiating permessage-deflate at zlib's fastest level."""
import asyncio
from types import SimpleNamespace

import pytest
from uvicorn.config import Config
from websockets.datastructures import Headers
from websockets.http11 import Request

from web import wsprotocol

pytestmark = pytest.mark.pure


async def _app(scope, receive, send):  # (never called: only the handshake is looked at)
    pass


def _protocol(**config):
    config = Config(app=_app, ws="web.wsprotocol:Protocol", **config)
    config.load()
    assert config.ws_protocol_class is wsprotocol.Protocol  # what uvicorn's --ws loads
    state = SimpleNamespace(connections=set(), tasks=set(), default_headers=[])
    return wsprotocol.Protocol(config, state, {}, _loop=asyncio.new_event_loop())


def _handshake(protocol):
    request = Request("/ws/me/", Headers({
        "Host": "127.0.0.1", "Upgrade": "websocket", "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Extensions": "permessage-deflate; client_max_window_bits"}))
    return protocol.conn.accept(request)


def test_frames_are_compressed_at_the_fastest_level():
    protocol = _protocol()
    response = _handshake(protocol)
    assert response.status_code == 101
    assert "permessage-deflate" in response.headers["Sec-WebSocket-Extensions"]
    [factory] = protocol.conn.available_extensions
    assert factory.compress_settings == {"memLevel": 5, "level": 1}


def test_without_deflate_when_the_server_says_so():
    response = _handshake(_protocol(ws_per_message_deflate=False))
    assert "Sec-WebSocket-Extensions" not in response.headers
