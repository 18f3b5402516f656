"""Addresses for tests and drills.

- ``fresh_ip()``: a client address for tests that meet the rate limits (web/ratelimit.py): the
  counters live in the shared cache (Redis on the real-services path) and outlive a test, and many
  tests post from 127.0.0.1, so a test that must not be limited by others' requests posts from an
  address of its own.
- ``free_port()``: a port for a server a test starts.
"""
import random
import socket

# Below the kernel's ephemeral range (net.ipv4.ip_local_port_range, 32768-60999 by default): a port
# from bind(("", 0)) lies inside it, and so do the local ports of outgoing connections, so a port
# chosen that way can be taken by a database or Redis client before the server binds it (a drill's
# uvicorn exited with 3, "address already in use", in CI). Nothing hands out ports down here itself.
_LOW, _HIGH = 20000, 32000


def fresh_ip() -> str:
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port(span: int = 1) -> int:
    """A port that nothing holds now, with its ``span - 1`` successors free too (the split stack
    puts its socket server on the port after the web server's)."""
    while True:
        port = random.randrange(_LOW, _HIGH - span)
        if all(_bindable(port + i) for i in range(span)):
            return port
