"""Client addresses for tests that meet the rate limits (config/ratelimit.py): the counters live in
the shared cache (Redis on the real-services path) and outlive a test, and many tests post from
127.0.0.1, so a test that must not be limited by others' requests posts from an address of its own."""
import random


def fresh_ip() -> str:
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
