"""A token bucket in memory (socket moves, a socket's hellos, a user's moves over all their
sockets): no Redis round trip per message. Used on the server's event loop only."""
from __future__ import annotations

import time

RATE, BURST = 10.0, 20  # socket moves: per second, and the burst allowed


class Bucket:
    def __init__(self, rate: float = RATE, burst: int = BURST):
        self.rate, self.burst, self.tokens, self.at = rate, burst, float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
