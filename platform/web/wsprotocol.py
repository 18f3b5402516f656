"""The socket servers' websocket protocol (uvicorn ``--ws web.wsprotocol:Protocol``): uvicorn's
own, with permessage-deflate at zlib's fastest level. A move's frames carry the table's live part
(20-90 KB of HTML) and are compressed on the event loop before they leave: at the default level 6
that took 4.5 ms for Alchemist's part on the 2-core box, at level 1 0.8 ms, for 21 % more bytes
(14.4 against 17.5 KB; docs/performance.md, "Click to the other player's screen")."""
from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

COMPRESS_LEVEL = 1


class Protocol(WebSocketsSansIOProtocol):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:  # uvicorn's own settings, but the level
            self.conn.available_extensions = [ServerPerMessageDeflateFactory(
                server_max_window_bits=12, client_max_window_bits=12,
                compress_settings={"memLevel": 5, "level": COMPRESS_LEVEL})]
