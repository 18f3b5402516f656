#!/usr/bin/env python
"""What presence (matches/presence.py) costs the request and socket paths, in one process:
``acted()`` as every signed-in request calls it (the throttled path: a dictionary look-up),
and a socket's ``opened()`` plus ``closed()`` (the writes go to presence's own thread).

    bench/run.py presence-cost
"""
import argparse
import os
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
argparse.ArgumentParser(prog="bench/run.py presence-cost", description=__doc__.split("\n\n")[0]).parse_args()

import django  # noqa: E402

django.setup()
from matches import presence  # noqa: E402

presence.acted(1)  # the first request of the user writes (on the thread); the rest look up
n = 200_000
t = timeit.timeit(lambda: presence.acted(1), number=n)
print(f"acted() per request (throttled): {t / n * 1e6:.2f} us")
users = list(range(2, 2002))
t = timeit.timeit(lambda: [presence.opened(u, 5) for u in users] and [presence.closed(u, 5) for u in users], number=5)
print(f"opened() + closed() per socket: {t / (5 * len(users)) * 1e6:.2f} us")
