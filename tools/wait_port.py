"""Waits until HOST:PORT accepts connections (at most 60 s): `make run` prints the site's address
only once the server listens. Exit 1 if it never does."""
import socket
import sys
import time

host, port = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    try:
        socket.create_connection((host, port), timeout=1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.2)
sys.exit(1)
