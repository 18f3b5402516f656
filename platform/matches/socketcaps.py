"""Caps on websockets per user and per address, and on socket moves per user.

The per-socket move limit (socketmoves.RATE) let one user with 50 sockets make 54 moves/s, and
800 anonymous sockets from one address were accepted. So a server process admits at most
``SOCKETS_PER_USER`` sockets of one signed-in user and ``ANONYMOUS_SOCKETS_PER_ADDRESS``
anonymous ones from one address (the rest are refused at the handshake), and all sockets of
one user share one move bucket (``USER_MOVE_RATE``/s, burst ``USER_MOVE_BURST``) besides each
socket's own.

Counted per process, in memory, on the server's event loop (connect, disconnect and moves all
run there): no Redis round trip per move or connect, and nothing to leak when a process dies.
A site with N socket processes therefore allows up to N times each cap to one user or address;
the proxy spreads one client's sockets over them. Settings override the numbers.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings

from .buckets import BURST, RATE, Bucket

SOCKETS_PER_USER = 40  # a tab holds two (its badge and its match): 20 tabs
ANONYMOUS_SOCKETS_PER_ADDRESS = 50  # spectators behind one NAT (a school, a club)
USER_MOVE_RATE, USER_MOVE_BURST = RATE, BURST  # one player, every socket: as fast as one socket


@dataclass
class _Holder:
    sockets: int = 0
    bucket: Bucket | None = field(default=None)


_holders: dict[str, _Holder] = {}


def _cap(name: str) -> int:
    return int(getattr(settings, name, globals()[name]))


def client_address(scope) -> str:
    """The client's address, behind RATE_LIMIT_PROXY_COUNT proxies as web.ratelimit reads it."""
    from web.ratelimit import PROXY_COUNT

    if PROXY_COUNT:
        forwarded = ",".join(v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-forwarded-for")
        hops = [h.strip() for h in forwarded.split(",") if h.strip()]
        if len(hops) >= PROXY_COUNT:
            return hops[-PROXY_COUNT]
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def admit(scope) -> str | None:
    """Takes a place for a new socket; the place's key, or None if the cap is reached."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        key, cap = f"u{user.pk}", _cap("SOCKETS_PER_USER")
    else:
        key, cap = "ip" + client_address(scope), _cap("ANONYMOUS_SOCKETS_PER_ADDRESS")
    holder = _holders.setdefault(key, _Holder())
    if holder.sockets >= cap:
        return None
    holder.sockets += 1
    return key


def release(key: str | None) -> None:
    holder = _holders.get(key) if key else None
    if holder is None:
        return
    holder.sockets -= 1
    if holder.sockets <= 0:
        del _holders[key]


def take_user_move(user_id: int) -> bool:
    """One move of the user's, whichever socket: False past the user's rate."""
    holder = _holders.get(f"u{user_id}")
    if holder is None:  # (a socket admitted by another path, e.g. a test's own scope)
        holder = _holders.setdefault(f"u{user_id}", _Holder(sockets=0))
    if holder.bucket is None:
        holder.bucket = Bucket(float(getattr(settings, "USER_MOVE_RATE", USER_MOVE_RATE)),
                               int(getattr(settings, "USER_MOVE_BURST", USER_MOVE_BURST)))
    return holder.bucket.take()


def held(key: str) -> int:
    holder = _holders.get(key)
    return holder.sockets if holder else 0
